// The request validators the simulator asks for, by key: `body:<operationId>` (the schema of the
// request body's first media type) and `parameter:<operationId>:<in>:<name>`. Shared by the build
// (tools/build/validators.ts) and the start-up bench, so both name the same schemas. (The bench's
// module hook loads the compiled twin of walk.ts in its place, as the simulator it measures does.)
import { deref, listOperations, type OpenApiDocument } from "../../src/shared/walk.ts";

/** key -> schema (which may $ref the document's components) */
export function validatorSchemas(document: OpenApiDocument): Map<string, unknown> {
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
