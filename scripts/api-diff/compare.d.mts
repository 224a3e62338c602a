// Types for scripts/api-diff/compare.mjs, so TypeScript tests can import it.
export type Impact = "breaking" | "non-breaking";
export type Side = "request" | "response" | "document";
export interface Change {
  impact: Impact;
  side: Side;
  /** A path and method, a parameter, or a schema location such as `Deployment.tenant_id`. */
  where: string;
  message: string;
  /** The operationIds that reach the change. */
  operations: string[];
}
export declare function compareDocuments(base: unknown, revision: unknown, walk: typeof import("../../src/shared/walk.js")): Change[];
