// Loads the bundled OpenAPI document at run time. generated/ sits two levels above this module
// both in src/simulator/ (vitest, tsc --noEmit) and in dist/simulator/ (the installed package).
import { readFileSync } from "node:fs";

export interface OpenApiDocument {
  paths: Record<string, Record<string, unknown>>;
  components: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

export function loadDocument(): OpenApiDocument {
  return JSON.parse(readFileSync(new URL("../../generated/openapi.json", import.meta.url), "utf8")) as OpenApiDocument;
}

/** Follows local "#/..." references until it reaches a value that is not a reference. */
export function deref<T = any>(document: OpenApiDocument, value: unknown): T {
  let v: any = value;
  while (v && typeof v === "object" && typeof v.$ref === "string" && v.$ref.startsWith("#/")) {
    v = (v.$ref as string)
      .slice(2)
      .split("/")
      .reduce((node: any, key: string) => node?.[key.replace(/~1/g, "/").replace(/~0/g, "~")], document);
  }
  return v as T;
}
