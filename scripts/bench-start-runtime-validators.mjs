// The start-up bench's "before": generated/validators.js's interface, with every validator compiled
// by ajv at run time (new Function) on first use, as the simulator did before the validators were
// compiled at build time. The bench swaps it in for generated/validators.js with a module hook.
import document from "../generated/openapi.json" with { type: "json" };
import * as walk from "../dist/shared/walk.js";
import { createOpenApiValidator } from "../dist/simulator/core/openapi-validator.js";
import { validatorSchemas } from "./validator-keys.mjs";

const schemas = validatorSchemas(document, walk);
let validator;

export const VALIDATOR_KEYS = Object.freeze([...schemas.keys()]);

export function compiledValidator(key) {
  if (!schemas.has(key)) throw new Error(`no validator "${key}"`);
  validator ??= createOpenApiValidator(document);
  return validator.validatorFor(schemas.get(key), key);
}
