// The bundled document and helpers to walk it, for tests that derive their cases from it. The
// walking itself is src/shared/walk.ts, the one module src/, tools/ and tests share.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { deref as derefIn, listOperations } from "../../src/shared/walk.js";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const document: any = JSON.parse(readFileSync(new URL("../../generated/openapi.json", import.meta.url), "utf8"));

export interface Operation {
  path: string;
  method: string;
  operationId: string;
  op: any;
  pathItem: any;
}

export function operations(): Operation[] {
  return listOperations(document).map(({ path, method, operationId, operation, pathItem }) => ({ path, method, operationId, op: operation, pathItem }));
}

/** The operation with this operationId; throws when the document has none. */
export function operationById(operationId: string): Operation {
  const found = operations().find((o) => o.operationId === operationId);
  if (!found) throw new Error(`no operation ${operationId} in generated/openapi.json`);
  return found;
}

/** Follows local "#/..." references in the bundled document. */
export function deref<T = any>(value: any): T {
  return derefIn<T>(document, value);
}
