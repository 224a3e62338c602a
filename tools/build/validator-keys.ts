// The request validators the simulator asks for, by key: `body:<operationId>` (the schema of the
// request body's first media type) and `parameter:<operationId>:<in>:<name>`. Shared by the build
// (tools/build/validators.ts) and the start-up bench, so both name the same schemas. `walk` is
// src/shared/walk.ts, passed in: the build imports it from the source, the bench from dist/.
import type { OpenApiDocument } from "../../src/shared/walk.ts";

/** The two functions of src/shared/walk.ts this module needs. */
export interface DocumentWalk {
  deref: typeof import("../../src/shared/walk.ts").deref;
  listOperations: typeof import("../../src/shared/walk.ts").listOperations;
}

/** key -> schema (which may $ref the document's components) */
export function validatorSchemas(document: OpenApiDocument, { deref, listOperations }: DocumentWalk): Map<string, unknown> {
  const schemas = new Map<string, unknown>();
  for (const { operationId, operation, parameters } of listOperations(document)) {
    for (const p of parameters) schemas.set(`parameter:${operationId}:${p.in}:${p.name}`, p.schema ?? {});
    if (operation.requestBody) {
      const content = deref(document, operation.requestBody).content ?? {};
      schemas.set(`body:${operationId}`, content[Object.keys(content)[0] ?? ""]?.schema ?? {});
    }
  }
  return schemas;
}
