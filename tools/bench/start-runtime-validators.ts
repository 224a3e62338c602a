// The start-up bench's "before": generated/validators.js's interface, with every validator compiled
// by ajv at run time (new Function) on first use, as the simulator did before the validators were
// compiled at build time. The bench swaps it in for generated/validators.js with a module hook.
// It names the simulator's sources (src/), for their types; the bench's hooks (tools/bench/start.ts)
// load what was built from them (dist/) in their place, as the simulator it measures does.
import document from "../../generated/openapi.json" with { type: "json" };
import type { OpenApiDocument } from "../../src/shared/walk.ts";
import { createOpenApiValidator } from "../../test/support/openapi-validator.ts";
import { validatorSchemas } from "../build/validator-keys.ts";

const schemas = validatorSchemas(document as unknown as OpenApiDocument);
let validator: ReturnType<typeof createOpenApiValidator> | undefined;

export const VALIDATOR_KEYS = Object.freeze([...schemas.keys()]);

export function compiledValidator(key: string) {
  if (!schemas.has(key)) throw new Error(`no validator "${key}"`);
  validator ??= createOpenApiValidator(document);
  return validator.validatorFor(schemas.get(key) as object, key);
}
