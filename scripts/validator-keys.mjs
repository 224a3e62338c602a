// The request validators the simulator asks for, by key: `body:<operationId>` (the schema of the
// request body's first media type) and `parameter:<operationId>:<in>:<name>`. Shared by the build
// (scripts/build-validators.mjs) and the start-up bench, so both name the same schemas. Imports
// nothing: `walk` is src/shared/walk.ts, from the source (walk-loader.mjs) or from dist/.

/** @returns {Map<string, unknown>} key -> schema (which may $ref the document's components) */
export function validatorSchemas(document, { deref, listOperations }) {
  const schemas = new Map();
  for (const { operationId, operation, parameters } of listOperations(document)) {
    for (const p of parameters) schemas.set(`parameter:${operationId}:${p.in}:${p.name}`, p.schema ?? {});
    if (operation.requestBody) {
      const content = deref(document, operation.requestBody).content ?? {};
      schemas.set(`body:${operationId}`, content[Object.keys(content)[0] ?? ""]?.schema ?? {});
    }
  }
  return schemas;
}
