// Compiles JSON Schema validators from the bundled document with ajv in 2020-12 mode at run time,
// for the tests (responses and examples against the document) and the start-up bench. The simulator
// itself uses the validators compiled at build time (generated/validators.js), so this module and
// ajv are development tools: the package does not ship this file, and ajv is a dev dependency.
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsImport from "ajv-formats";

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped in `default`.
type AddFormats = (ajv: Ajv2020) => Ajv2020;
const addFormats = ((addFormatsImport as unknown as { default?: AddFormats }).default ?? addFormatsImport) as AddFormats;

export const DOCUMENT_ID = "urn:deployment-management-api:openapi";

export interface OpenApiValidator {
  /** Compiles (once) a validator for the schema at a JSON Pointer into the document, such as `#/components/schemas/Deployment`. */
  validatorAt(pointer: string): ValidateFunction;
  /** Compiles (once) a validator for an inline schema that may $ref the document's components. */
  validatorFor(schema: object, key: string): ValidateFunction;
}

export function createOpenApiValidator(document: object): OpenApiValidator {
  const ajv = new Ajv2020({
    allErrors: true,
    // The document carries OpenAPI keywords (example, x-* extensions) that are not JSON Schema.
    strict: false,
    validateFormats: true,
  });
  addFormats(ajv);
  // Internal $refs of the bundle are "#/components/..."; rewrite them to the document id so that
  // schemas compiled from any pointer resolve them.
  ajv.addSchema(rewriteRefs(document) as Record<string, unknown>, DOCUMENT_ID);
  const cache = new Map<string, ValidateFunction>();
  return {
    validatorAt(pointer) {
      let fn = cache.get(pointer);
      if (!fn) {
        fn = ajv.compile({ $ref: `${DOCUMENT_ID}${pointer}` });
        cache.set(pointer, fn);
      }
      return fn;
    },
    validatorFor(schema, key) {
      let fn = cache.get(key);
      if (!fn) {
        fn = ajv.compile(rewriteRefs(schema) as Record<string, unknown>);
        cache.set(key, fn);
      }
      return fn;
    },
  };
}

function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = k === "$ref" && typeof v === "string" && v.startsWith("#/") ? `${DOCUMENT_ID}${v}` : rewriteRefs(v);
    }
    return out;
  }
  return value;
}

/** Formats ajv errors as one line each, for test failures and logs. */
export function describeErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? ""}`.trim()).join("; ");
}
