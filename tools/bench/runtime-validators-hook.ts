// The start-up bench's module hook (registered in its "runtime" child processes): answers
// generated/validators.js with the stand-in that compiles every validator with ajv at run time
// (start-runtime-validators.ts), and loads the compiled twin in dist/ of each src/ module a tool
// names, as the simulator it measures does. A module of its own, so it is type-checked and linted.
import type { InitializeHook, ResolveHook } from "node:module";

/** The URLs the hook needs, passed by register()'s `data`. */
export interface HookUrls {
  runtimeValidators: string;
  tools: string;
  src: string;
  dist: string;
}

let urls: HookUrls | undefined;

export const initialize: InitializeHook<HookUrls> = (data) => {
  urls = data;
};

export const resolve: ResolveHook = async (specifier, context, next) => {
  const resolved = await next(specifier, context);
  if (!urls) return resolved;
  if (resolved.url.endsWith("/generated/validators.js")) return { url: urls.runtimeValidators, shortCircuit: true };
  if (context.parentURL?.startsWith(urls.tools) && resolved.url.startsWith(urls.src)) {
    return { url: urls.dist + resolved.url.slice(urls.src.length).replace(/\.ts$/, ".js"), shortCircuit: true };
  }
  return resolved;
};
