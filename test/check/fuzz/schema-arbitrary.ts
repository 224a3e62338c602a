// A small JSON-Schema-to-fast-check generator driven by the bundled document: it draws values a
// request schema accepts (enums, types, bounds, nullable wrappers, nested objects, closed and open
// objects, properties that cannot be sent). It knows only the keywords the document uses; ajv
// stays the judge (test/check/fuzz/generator.test.ts checks every drawn value against it).
import fc from "fast-check";
import { allOfSchemas, boundsOf, deref, type SchemaBounds, viewSchema } from "../../../src/shared/walk.js";
import { document } from "../../support/document.js";

type Schema = Record<string, any> | boolean;

/** A schema as src/shared/walk.ts reads it, shaped for drawing request values. */
export interface Flat extends SchemaBounds {
  types: Set<string> | undefined;
  enum?: unknown[];
  format?: string;
  /** Properties that may be sent (readOnly ones and those the schema forbids with `false` are left out). */
  properties: Map<string, Schema[]>;
  /** Names the schema forbids (`name: false`, or readOnly in a request). */
  forbidden: Set<string>;
  required: Set<string>;
  /** additionalProperties / unevaluatedProperties false. */
  closed: boolean;
  /** The schema of properties not named, when it is given as a schema. */
  additional?: Schema;
  items: Schema[];
  readOnly: boolean;
}

/**
 * The package's one reading of a schema (src/shared/walk.ts), with what a request may not
 * carry set apart: properties the schema forbids with `false`, and readOnly ones.
 */
export function flatten(raw: Schema, depth = 0): Flat {
  const view = viewSchema(document, raw, depth);
  if (view.branches) throw new Error(`the generator does not handle anyOf/oneOf with ${view.branches.length} branches`);
  const out: Flat = {
    types: view.types,
    properties: new Map(),
    forbidden: new Set(view.forbidden),
    required: view.required,
    closed: view.closed,
    items: view.items,
    readOnly: view.readOnly,
    ...boundsOf(view),
  };
  if (view.enum) out.enum = view.enum;
  if (view.format !== undefined) out.format = view.format;
  if (view.additional.length > 0) out.additional = allOfSchemas(view.additional);
  for (const [name, parts] of view.properties) {
    if (parts.some((sub) => typeof sub === "object" && deref<any>(document, sub).readOnly === true)) out.forbidden.add(name);
    else out.properties.set(name, parts);
  }
  return out;
}

/** Text of every kind a JSON string can carry: ASCII, any code point, grapheme clusters, lone surrogates. */
export function anyText(maxLength = 12): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ maxLength }) },
    fc.string({ unit: "grapheme", maxLength }),
    fc.string({ unit: "binary", maxLength }),
    fc.constantFrom("", " ", "ü", "日本", "😀", "\u0000", "\u2028", "a\nb", "%zz", "../..", "<script>", "\ud800"),
  );
}

/** A small JSON value, for the open parts of a schema (Kubernetes objects pass through). */
function openJson(): fc.Arbitrary<unknown> {
  return fc.jsonValue({ maxDepth: 2, depthSize: "xsmall" });
}

export interface DrawOptions {
  /** How many levels of nested objects and arrays to fill before leaving optional parts out. */
  maxDepth?: number;
}

/** An arbitrary of values that `raw` accepts. */
export function arbitraryFor(raw: Schema, options: DrawOptions = {}, depth = 0): fc.Arbitrary<unknown> {
  const maxDepth = options.maxDepth ?? 6;
  if (raw === true) return openJson();
  const flat = flatten(raw);
  const choices: fc.Arbitrary<unknown>[] = [];
  if (flat.enum) return fc.constantFrom(...flat.enum);
  const types = flat.types ? [...flat.types] : flat.properties.size > 0 || flat.closed ? ["object"] : flat.items.length > 0 ? ["array"] : undefined;
  if (!types) return openJson();
  for (const type of types) {
    switch (type) {
      case "null":
        choices.push(fc.constant(null));
        break;
      case "boolean":
        choices.push(fc.boolean());
        break;
      case "integer": {
        const min = flat.minimum ?? (flat.exclusiveMinimum !== undefined ? flat.exclusiveMinimum + 1 : flat.format === "int32" ? -(2 ** 31) : -(2 ** 40));
        const max = flat.maximum ?? (flat.exclusiveMaximum !== undefined ? flat.exclusiveMaximum - 1 : flat.format === "int32" ? 2 ** 31 - 1 : 2 ** 40);
        choices.push(fc.oneof(fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.min(max, 2 ** 31 - 1) }), fc.constantFrom(min, max)));
        break;
      }
      case "number": {
        const min = flat.minimum ?? -1e6;
        const max = flat.maximum ?? 1e6;
        choices.push(
          fc.oneof(
            fc.double({ min, max, noNaN: true, noDefaultInfinity: true }),
            fc.integer({ min: Math.ceil(min), max: Math.floor(max) }),
            fc.constantFrom(min, max),
          ),
        );
        break;
      }
      case "string":
        choices.push(stringFor(flat));
        break;
      case "array": {
        const item = flat.items.length === 0 ? openJson() : arbitraryFor(flat.items.length === 1 ? flat.items[0]! : { allOf: flat.items }, options, depth + 1);
        const maxLength = depth >= maxDepth ? (flat.minItems ?? 0) : Math.max(flat.minItems ?? 0, Math.min(flat.maxItems ?? 3, 3));
        choices.push(fc.array(item, { minLength: flat.minItems ?? 0, maxLength }));
        break;
      }
      case "object":
        choices.push(objectFor(flat, options, depth));
        break;
      default:
        throw new Error(`the generator does not handle type ${type}`);
    }
  }
  return choices.length === 1 ? choices[0]! : fc.oneof(...choices);
}

function stringFor(flat: Flat): fc.Arbitrary<string> {
  if (flat.format === "uuid") return fc.uuid();
  if (flat.format === "date-time") return fc.date({ min: new Date(0), max: new Date(Date.UTC(9999, 0)), noInvalidDate: true }).map((d) => d.toISOString());
  if (flat.format !== undefined) throw new Error(`the generator does not handle format ${flat.format}`);
  const minLength = flat.minLength ?? 0;
  const maxLength = flat.maxLength ?? Math.max(minLength, 12);
  return anyText(maxLength).filter((s) => s.length >= minLength && s.length <= maxLength);
}

function objectFor(flat: Flat, options: DrawOptions, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const maxDepth = options.maxDepth ?? 6;
  const named: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, parts] of flat.properties) {
    if (depth >= maxDepth && !flat.required.has(name)) continue;
    named[name] = arbitraryFor(parts.length === 1 ? parts[0]! : { allOf: parts }, options, depth + 1);
  }
  const known = fc.record(named, { requiredKeys: [...flat.required].filter((n) => n in named) });
  if (flat.closed) return known;
  // Open objects take other names too: the schema's additionalProperties, or any JSON.
  const extraValue = flat.additional !== undefined ? arbitraryFor(flat.additional, options, depth + 1) : openJson();
  const extraKey = anyText(8).filter((k) => !flat.properties.has(k) && !flat.forbidden.has(k) && k !== "__proto__");
  const extra = depth >= maxDepth ? fc.constant({}) : fc.dictionary(extraKey, extraValue, { maxKeys: 2 });
  return fc.tuple(known, extra).map(([k, e]) => ({ ...e, ...k }));
}
