// What a comparison of two bundled documents reports, and what each step of it is handed. Shared by
// the operation-level comparison (compare.ts) and the schema-level one (compare-schemas.ts).
import type { DocumentNode } from "../../src/shared/walk.ts";

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

// Both documents are JSON read by shape.
export type Json = DocumentNode;
export type RecordChange = (impact: Impact, side: Side, where: string, message: string, operation?: string) => void;
export type Report = (message: string) => void;

/** What every comparison of one operation needs: both documents, where to record, and the operation. */
export interface Context {
  base: Json;
  revision: Json;
  record: RecordChange;
  operation: string;
}
