// A flattened view of the JSON Schemas in the bundled document, for deriving test cases:
// follows $ref, merges allOf, and sees through the `anyOf: [X, {type: "null"}]` nullable wrapper.
// It is only as precise as case derivation needs; ajv (test/support/openapi-validator.ts) stays the
// judge of what is valid. References and the nullable wrapper are read with src/shared/walk.ts.
import { deref, isNullBranch } from "../../src/shared/walk.js";

export type Schema = Record<string, any>;

export interface SchemaView {
  /** JSON types allowed; undefined when the schema does not say. "null" is in it when nullable. */
  types?: Set<string>;
  enum?: unknown[];
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
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
  const out: SchemaView = { properties: new Map(), required: new Set(), closed: false, opaque: false };
  merge(document, out, raw, 0);
  return out;
}

function merge(document: Schema, out: SchemaView, raw: Schema, depth: number): void {
  if (depth > 20) throw new Error("schema nesting too deep");
  const schema = resolveRef(document, raw);
  for (const part of schema.allOf ?? []) merge(document, out, part, depth + 1);
  const branches: Schema[] | undefined = schema.anyOf ?? schema.oneOf;
  if (branches) {
    const nonNull = branches.filter((b) => !isNullBranch(document, b));
    if (nonNull.length === 1 && nonNull[0]) {
      merge(document, out, nonNull[0], depth + 1);
      if (nonNull.length < branches.length) addTypes(out, ["null"]);
    } else {
      out.opaque = true;
    }
  }
  if (schema.type !== undefined) {
    const types = new Set<string>(Array.isArray(schema.type) ? schema.type : [schema.type]);
    // allOf parts narrow the type: keep what every part allows.
    out.types = out.types ? new Set([...out.types].filter((t) => types.has(t) || (t === "integer" && types.has("number")))) : types;
  }
  if (schema.enum !== undefined) out.enum = schema.enum;
  if (schema.const !== undefined) out.enum = [schema.const];
  for (const key of [
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
  ] as const) {
    if (schema[key] !== undefined) (out as any)[key] = schema[key];
  }
  if (schema.readOnly === true) out.readOnly = true;
  for (const [name, sub] of Object.entries<Schema>(schema.properties ?? {})) {
    const existing = out.properties.get(name);
    // A property defined twice (allOf member and sibling) must satisfy both.
    out.properties.set(name, existing ? { allOf: [existing, sub] } : sub);
  }
  for (const name of schema.required ?? []) out.required.add(name);
  if (schema.additionalProperties === false || schema.unevaluatedProperties === false) out.closed = true;
  if (schema.items !== undefined) out.items = out.items ? { allOf: [out.items, schema.items] } : schema.items;
  const sample = schema.const ?? schema.default ?? schema.example ?? schema.examples?.[0];
  if (sample !== undefined && sample !== null) out.sample = sample;
}

function addTypes(out: SchemaView, types: string[]): void {
  out.types = new Set([...(out.types ?? []), ...types]);
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
