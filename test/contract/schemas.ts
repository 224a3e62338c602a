// A view of the JSON Schemas in the bundled document, for deriving test cases: the package's one
// reading of a schema (src/shared/walk.ts: $ref followed, allOf intersected with the tightest
// bounds, the nullable wrapper seen through), shaped for case derivation. ajv
// (test/support/openapi-validator.ts) stays the judge of what is valid.
import { allOfSchemas, boundsOf, deref, type SchemaBounds, viewSchema } from "../../src/shared/walk.js";

export type Schema = Record<string, any>;

export interface SchemaView extends SchemaBounds {
  /** JSON types allowed; undefined when the schema does not say. "null" is in it when nullable. */
  types?: Set<string>;
  enum?: unknown[];
  format?: string;
  pattern?: string;
  readOnly?: boolean;
  properties: Map<string, Schema>;
  required: Set<string>;
  /** additionalProperties: false or unevaluatedProperties: false. */
  closed: boolean;
  items?: Schema;
  /** A value the document shows for it: const, default, example or examples[0]. */
  sample?: unknown;
  /** oneOf/anyOf with several non-null branches: too open to derive from. */
  opaque: boolean;
}

/**
 * The schema a value stands for: local $refs followed (src/shared/walk.ts). OpenAPI 3.1 lets
 * keywords sit beside a $ref; they apply too, so they come back as an allOf with the target.
 */
export function resolveRef(document: Schema, value: Schema): Schema {
  if (!value || typeof value.$ref !== "string") return value;
  const target = deref<Schema>(document, value);
  const { $ref: _ref, ...siblings } = value;
  return Object.keys(siblings).length > 0 ? { allOf: [target], ...siblings } : target;
}

export function view(document: Schema, raw: Schema): SchemaView {
  const shared = viewSchema(document, raw);
  const out: SchemaView = {
    properties: new Map([...shared.properties].map(([name, list]) => [name, allOfSchemas(list)])),
    required: shared.required,
    closed: shared.closed,
    opaque: shared.branches !== undefined,
    ...boundsOf(shared),
  };
  if (shared.types) out.types = shared.types;
  if (shared.enum) out.enum = shared.enum;
  if (shared.format !== undefined) out.format = shared.format;
  if (shared.patterns.length > 0) out.pattern = shared.patterns[shared.patterns.length - 1];
  if (shared.readOnly) out.readOnly = true;
  if (shared.items.length > 0) out.items = allOfSchemas(shared.items);
  if (shared.sample !== undefined) out.sample = shared.sample;
  return out;
}

const FORMAT_SAMPLES: Record<string, string> = {
  uuid: "3fa85f64-5717-4562-b3fc-2c963f66afa6",
  "date-time": "2026-01-01T00:00:00Z",
  date: "2026-01-01",
  uri: "https://example.com/",
  url: "https://example.com/",
  email: "someone@example.com",
  hostname: "example.com",
};

/** A small value the schema accepts: the document's own sample when it has one, else the least that satisfies it. */
export function minimalValue(document: Schema, raw: Schema, depth = 0): unknown {
  const v = view(document, raw);
  if (v.sample !== undefined) return structuredClone(v.sample);
  const firstEnum = v.enum?.find((e) => e !== null);
  if (firstEnum !== undefined) return firstEnum;
  const type = pickType(v);
  switch (type) {
    case "object": {
      const value: Record<string, unknown> = {};
      if (depth < 10) for (const name of v.required) value[name] = minimalValue(document, v.properties.get(name) ?? {}, depth + 1);
      return value;
    }
    case "array":
      return depth < 10 && v.items && (v.minItems ?? 0) > 0
        ? Array.from({ length: v.minItems ?? 0 }, () => minimalValue(document, v.items ?? {}, depth + 1))
        : [];
    case "integer":
    case "number": {
      const low = v.minimum ?? (v.exclusiveMinimum !== undefined ? v.exclusiveMinimum + 1 : undefined);
      return low ?? Math.min(1, v.maximum ?? 1);
    }
    case "boolean":
      return true;
    case "null":
      return null;
    default: {
      if (v.format && FORMAT_SAMPLES[v.format]) return FORMAT_SAMPLES[v.format];
      return "x".repeat(Math.max(v.minLength ?? 1, 1));
    }
  }
}

export function pickType(v: SchemaView): string {
  const types = [...(v.types ?? [])].filter((t) => t !== "null");
  if (types.length > 0) return types[0] ?? "string";
  if (v.properties.size > 0 || v.closed) return "object";
  if (v.items) return "array";
  return v.types?.has("null") ? "null" : "string";
}
