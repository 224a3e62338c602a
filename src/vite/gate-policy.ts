// The local-server policy of the plugin's paths, made from Vite's own settings, so the simulator
// under the prefix is guarded by the gate (src/local-server/node-gate.ts) in the gate's words, as on
// its own port, and still answers everyone Vite lets in: the names Vite answers to (its
// `allowedHosts` list, the addresses it prints, `server.origin`) and, as origins whose pages may
// write, the origins of the pages it serves (those addresses) and the string origins of Vite's
// `cors.origin`. Vite answers CORS preflights itself before any plugin sees them.
import type { PreviewServer, ViteDevServer } from "vite";
import type { LocalServerPolicy } from "../gate/policy.js";

/** The gate's policy for a dev or preview server; read once it listens, when its URLs are known. */
export function vitePolicy(server: ViteDevServer | PreviewServer, kind: "dev" | "preview"): LocalServerPolicy {
  const options = kind === "dev" ? server.config.server : server.config.preview;
  const urls = [...(server.resolvedUrls?.local ?? []), ...(server.resolvedUrls?.network ?? [])];
  const origin = kind === "dev" ? server.config.server.origin : undefined;
  if (origin) urls.push(origin);
  const pages = urls.flatMap((url) => parsed(url) ?? []);
  // `allowedHosts: true` is Vite's own "any name" (behind a tunnel or a proxy): the plugin follows it.
  const allowedHosts = options.allowedHosts === true ? true : [...(options.allowedHosts ?? []), ...pages.map((url) => url.hostname)];
  return {
    allowedHosts,
    corsOrigins: [...pages.map((url) => url.origin), ...stringOrigins(options.cors)],
  };
}

/** The origins Vite's `cors` setting names as strings (a RegExp or a function says nothing the gate can list). */
function stringOrigins(cors: unknown): string[] {
  const origin = typeof cors === "object" && cors !== null && "origin" in cors ? cors.origin : undefined;
  const listed = Array.isArray(origin) ? origin : [origin];
  return listed.filter((o): o is string => typeof o === "string" && parsed(o) !== undefined);
}

function parsed(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}
