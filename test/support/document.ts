// The bundled document and helpers to walk it, for tests that derive their cases from it.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const document = JSON.parse(readFileSync(new URL("../../generated/openapi.json", import.meta.url), "utf8"));

export const METHODS = ["get", "put", "post", "patch", "delete"] as const;

export interface Operation {
  path: string;
  method: string;
  operationId: string;
  op: any;
  pathItem: any;
}

export function operations(): Operation[] {
  const out: Operation[] = [];
  for (const [path, pathItem] of Object.entries<any>(document.paths)) {
    for (const method of METHODS) {
      if (pathItem[method]) out.push({ path, method, operationId: pathItem[method].operationId, op: pathItem[method], pathItem });
    }
  }
  return out;
}

/** The operation with this operationId; throws when the document has none. */
export function operationById(operationId: string): Operation {
  const found = operations().find((o) => o.operationId === operationId);
  if (!found) throw new Error(`no operation ${operationId} in generated/openapi.json`);
  return found;
}

/** Follows a local "#/components/..." reference. */
export function deref<T = any>(value: any): T {
  let v = value;
  while (v && typeof v === "object" && typeof v.$ref === "string") {
    v = v.$ref.slice(2).split("/").reduce((node: any, key: string) => node[key.replace(/~1/g, "/").replace(/~0/g, "~")], document);
  }
  return v;
}
