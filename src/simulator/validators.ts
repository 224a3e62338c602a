// Where the simulator gets its request validators: the one place to swap ajv compiling at run time
// for validators compiled at build time (ajv's standalone code, needed under a strict
// Content-Security-Policy that forbids `new Function`). Everything else asks `compile(key, schema)`.
import type { ValidateFunction } from "ajv/dist/2020.js";
import type { OpenApiDocument } from "../openapi/walk.js";
import { createOpenApiValidator } from "./openapi-validator.js";

export interface Validators {
  /** The validator for `schema` (which may $ref the document's components); `key` names it uniquely, such as `body:patchDeployment`. */
  compile(key: string, schema: unknown): ValidateFunction;
}

export function createValidators(document: OpenApiDocument): Validators {
  const validator = createOpenApiValidator(document);
  return { compile: (key, schema) => validator.validatorFor(schema as object, key) };
}
