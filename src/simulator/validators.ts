// Where the simulator gets its request validators: compiled to JavaScript when the package is built
// (ajv's standalone code in generated/validators.js, by scripts/build-validators.mjs), so nothing is
// compiled at start and no function is made from text: the core runs under a Content-Security-Policy
// without 'unsafe-eval'. Everything else asks `compile(key, schema)`; this is the one place to swap.
import { compiledValidator, type CompiledValidator } from "../../generated/validators.js";
import type { OpenApiDocument } from "../openapi/walk.js";

export type { CompiledValidator, ValidationError } from "../../generated/validators.js";

export interface Validators {
  /**
   * The validator for `schema`, named by `key` (`body:<operationId>` or
   * `parameter:<operationId>:<in>:<name>`); the build compiled one for every such key.
   */
  compile(key: string, schema: unknown): CompiledValidator;
}

export function createValidators(_document: OpenApiDocument): Validators {
  return { compile: (key) => compiledValidator(key) };
}
