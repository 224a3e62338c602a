// The schema half of the breaking-change rules: what a schema allows, flattened (`$ref`s followed,
// `allOf` parts intersected, the nullable wrapper seen through), and the comparison of two such
// views by the side they are on (narrowing a request or widening a response breaks a client).
import { deref, isNullBranch, unescapePointerSegment, unwrapNullable } from "../../src/shared/walk.ts";
import type { Context, Json, Report, Side } from "./change.ts";

/** A schema as flatten() sees it: what it allows, `$ref`s followed and `allOf` parts intersected. */
interface Flat {
  types: Set<string> | undefined;
  enum: unknown[] | undefined;
  format: string | undefined;
  properties: Map<string, Json[]>;
  required: Set<string>;
  closed: boolean;
  items: Json[];
  additional: Json[];
  branches?: Json[] | undefined;
  name?: string | undefined;
  wrapped?: boolean;
  never?: string[];
  pattern?: string;
  [bound: string]: unknown;
}

const MIN_BOUNDS = ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"];
const MAX_BOUNDS = ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"];

/**
 * What a schema allows, flattened: `$ref`s followed, `allOf` parts intersected, the nullable
 * wrapper `anyOf: [X, {type: "null"}]` seen through (null joins the types).
 */
function flatten(doc: Json, raw: Json, depth = 0): Flat {
  const out: Flat = {
    types: undefined,
    enum: undefined,
    format: undefined,
    properties: new Map(),
    required: new Set(),
    closed: false,
    items: [],
    additional: [],
    branches: undefined,
    name: undefined,
  };
  if (depth > 30) return out;
  if (raw && typeof raw.$ref === "string") {
    const match = /^#\/components\/schemas\/([^/]+)$/.exec(raw.$ref);
    if (match) out.name = unescapePointerSegment(match[1]!);
  }
  const schema: Json = deref(doc, raw) ?? {};
  // OpenAPI 3.1 lets keywords sit beside a $ref; they apply too.
  const siblings = raw && typeof raw.$ref === "string" ? Object.fromEntries(Object.entries(raw).filter(([k]) => k !== "$ref")) : undefined;
  for (const part of [schema, siblings].filter(Boolean)) mergeInto(out, doc, part, depth);
  return out;
}

function mergeInto(out: Flat, doc: Json, schema: Json, depth: number): void {
  let partName: string | undefined;
  for (const part of schema.allOf ?? []) {
    const inner = flatten(doc, part, depth + 1);
    intersect(out, inner);
    partName = inner.name ?? partName;
  }
  // An unnamed allOf is reported under its last named part (a request variant comes after the schema it extends).
  out.name ??= partName;
  const branches = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(branches)) {
    const { schema: single, nullable } = unwrapNullable(doc, schema);
    if (single !== schema) {
      const inner = flatten(
        doc,
        branches.find((b: Json) => !isNullBranch(doc, b)),
        depth + 1,
      );
      if (nullable && inner.types) inner.types = new Set([...inner.types, "null"]);
      intersect(out, inner);
      // Nullability added by a wrapper belongs to the place that wraps, not to the named schema inside.
      out.wrapped = true;
      if (!out.name) out.name = inner.name;
    } else {
      out.branches = branches;
    }
  }
  const own: Flat = {
    types:
      schema.type !== undefined
        ? new Set<string>([].concat(schema.type))
        : schema.properties || schema.additionalProperties !== undefined
          ? new Set(["object"])
          : undefined,
    enum: schema.const !== undefined ? [schema.const] : schema.enum,
    format: schema.format,
    // A property whose schema is `false` can never be sent or received: it is as good as absent.
    properties: new Map(
      Object.entries<Json>(schema.properties ?? {})
        .filter(([, v]) => v !== false)
        .map(([k, v]) => [k, [v]]),
    ),
    required: new Set(schema.required ?? []),
    closed: schema.additionalProperties === false || schema.unevaluatedProperties === false,
    items: schema.items && typeof schema.items === "object" ? [schema.items] : [],
    additional: schema.additionalProperties && typeof schema.additionalProperties === "object" ? [schema.additionalProperties] : [],
  };
  own.never = Object.entries<Json>(schema.properties ?? {})
    .filter(([, v]) => v === false)
    .map(([k]) => k);
  for (const bound of [...MIN_BOUNDS, ...MAX_BOUNDS, "pattern"]) if (schema[bound] !== undefined) own[bound] = schema[bound];
  intersect(out, own);
}

// Both schemas must hold (allOf): the allowed types and enum values are those both allow, the bounds the tighter.
function intersect(out: Flat, part: Flat): void {
  const types = part.types;
  if (types) out.types = out.types ? new Set([...out.types].filter((t) => types.has(t) || (t === "integer" && types.has("number")))) : new Set(types);
  const values = part.enum;
  if (values) out.enum = out.enum ? out.enum.filter((v) => values.some((w) => same(v, w))) : [...values];
  if (part.format) out.format = part.format;
  for (const [name, list] of part.properties) out.properties.set(name, [...(out.properties.get(name) ?? []), ...list]);
  for (const name of part.never ?? []) out.properties.delete(name);
  for (const name of part.required) out.required.add(name);
  out.closed ||= part.closed;
  out.items.push(...part.items);
  out.additional.push(...part.additional);
  for (const bound of MIN_BOUNDS)
    if (part[bound] !== undefined) out[bound] = out[bound] === undefined ? part[bound] : Math.max(out[bound] as number, part[bound] as number);
  for (const bound of MAX_BOUNDS)
    if (part[bound] !== undefined) out[bound] = out[bound] === undefined ? part[bound] : Math.min(out[bound] as number, part[bound] as number);
  if (part.pattern !== undefined) out.pattern = part.pattern;
  if (part.branches) out.branches = part.branches;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
const asAllOf = (list: Json[]): Json => (list.length === 1 ? list[0] : { allOf: list });

/**
 * Records how a schema changed. On the request side a narrowing breaks clients, on the response
 * side a widening does; `narrowed`/`widened` below name the direction of each finding.
 */
export function compareSchemas(ctx: Context, side: Side, where: string, oldRaw: Json, newRaw: Json, seen: Set<string>): void {
  const old = flatten(ctx.base, oldRaw);
  const now = flatten(ctx.revision, newRaw);
  // A named schema is reported under its name, once, whichever operation reached it.
  const site = where;
  if (old.name && old.name === now.name) where = old.name;
  const visit = `${side}|${where}`;
  if (seen.has(visit)) return;
  seen = new Set(seen).add(visit);

  const narrowed: Report = (message) => ctx.record(side === "request" ? "breaking" : "non-breaking", side, where, message, ctx.operation);
  const widened: Report = (message) => ctx.record(side === "response" ? "breaking" : "non-breaking", side, where, message, ctx.operation);
  const removed: Report = (message) => ctx.record("breaking", side, where, message, ctx.operation);

  const atSite =
    (impactOn: Side): Report =>
    (message) =>
      ctx.record(side === impactOn ? "breaking" : "non-breaking", side, site, message, ctx.operation);
  const nullAtSite = old.wrapped || now.wrapped;
  compareTypes(
    old.types,
    now.types,
    narrowed,
    widened,
    side,
    nullAtSite ? { narrowed: atSite("request"), widened: atSite("response") } : { narrowed, widened },
  );
  compareEnums(old.enum, now.enum, narrowed, widened, removed, side);
  if (old.format !== now.format) {
    if (old.format && now.format) {
      narrowed(`format ${old.format} changed to ${now.format}`);
      widened(`format ${old.format} changed to ${now.format}`);
    } else if (now.format) narrowed(`format ${now.format} added`);
    else widened(`format ${old.format} removed`);
  }
  for (const bound of MIN_BOUNDS) compareBound(bound, old[bound] as number, now[bound] as number, (a, b) => b > a, narrowed, widened);
  for (const bound of MAX_BOUNDS) compareBound(bound, old[bound] as number, now[bound] as number, (a, b) => b < a, narrowed, widened);
  if (old.pattern !== now.pattern) {
    if (now.pattern === undefined) widened(`pattern removed`);
    else if (old.pattern === undefined) narrowed(`pattern ${now.pattern} added`);
    else {
      narrowed(`pattern changed to ${now.pattern}`);
      widened(`pattern changed to ${now.pattern}`);
    }
  }

  // Objects: fields, required flags, closedness.
  for (const [name, list] of old.properties) {
    const next = now.properties.get(name);
    const field = `${where}.${name}`;
    if (!next) {
      ctx.record("breaking", side, field, "field removed", ctx.operation);
      continue;
    }
    if (side === "request" && !old.required.has(name) && now.required.has(name)) ctx.record("breaking", side, field, "field made required", ctx.operation);
    if (side === "request" && old.required.has(name) && !now.required.has(name)) ctx.record("non-breaking", side, field, "field made optional", ctx.operation);
    if (side === "response" && old.required.has(name) && !now.required.has(name))
      ctx.record("breaking", side, field, "field made optional (may be absent)", ctx.operation);
    if (side === "response" && !old.required.has(name) && now.required.has(name))
      ctx.record("non-breaking", side, field, "field made required (always sent)", ctx.operation);
    compareSchemas(ctx, side, field, asAllOf(list), asAllOf(next), seen);
  }
  for (const name of now.properties.keys()) {
    if (old.properties.has(name)) continue;
    const field = `${where}.${name}`;
    if (side === "request" && now.required.has(name)) ctx.record("breaking", side, field, "required field added", ctx.operation);
    else ctx.record("non-breaking", side, field, "field added", ctx.operation);
  }
  if (side === "request" && !old.closed && now.closed) narrowed("unknown fields are now rejected");
  if (side === "request" && old.closed && !now.closed) widened("unknown fields are now accepted");

  if (old.items.length && now.items.length) compareSchemas(ctx, side, `${where}[]`, asAllOf(old.items), asAllOf(now.items), seen);
  if (old.additional.length && now.additional.length) compareSchemas(ctx, side, `${where}{}`, asAllOf(old.additional), asAllOf(now.additional), seen);

  // Alternatives (oneOf/anyOf of several schemas): compared in order when their number is unchanged.
  const a = old.branches ?? [];
  const b = now.branches ?? [];
  if (a.length === b.length) {
    for (const [i, branch] of a.entries()) compareSchemas(ctx, side, `${where}|${i}`, branch, b[i], seen);
  } else if (b.length > a.length) widened(`alternatives grew from ${a.length} to ${b.length}`);
  else narrowed(`alternatives shrank from ${a.length} to ${b.length}`);
}

function compareTypes(
  oldTypes: Set<string> | undefined,
  newTypes: Set<string> | undefined,
  narrowed: Report,
  widened: Report,
  side: Side,
  nullChange: { narrowed: Report; widened: Report },
): void {
  const allows = (types: Set<string> | undefined, t: string) => !types || types.has(t) || (t === "integer" && types.has("number"));
  if (oldTypes && newTypes) {
    const lost = [...oldTypes].filter((t) => !allows(newTypes, t));
    const gained = [...newTypes].filter((t) => !allows(oldTypes, t));
    for (const t of lost) {
      if (t === "null") nullChange.narrowed(side === "request" ? "no longer accepts null" : "no longer null");
      else narrowed(`type ${t} no longer allowed`);
    }
    for (const t of gained) {
      if (t === "null") nullChange.widened(side === "request" ? "now accepts null" : "made nullable (may be null)");
      else widened(`type ${t} now allowed`);
    }
  } else if (oldTypes && !newTypes) widened(`type constraint [${[...oldTypes].join(", ")}] removed`);
  else if (!oldTypes && newTypes) narrowed(`type constrained to [${[...newTypes].join(", ")}]`);
}

function compareEnums(oldEnum: unknown[] | undefined, newEnum: unknown[] | undefined, narrowed: Report, widened: Report, removed: Report, side: Side): void {
  if (!oldEnum && !newEnum) return;
  if (!newEnum) {
    widened("enum removed (any value allowed)");
    return;
  }
  if (!oldEnum) {
    narrowed(`restricted to the values ${newEnum.map(show).join(", ")}`);
    return;
  }
  for (const value of oldEnum) {
    if (newEnum.some((v) => same(v, value))) continue;
    // Gone from the generated union type and constants either way; on the request side clients may no longer send it.
    removed(`enum value ${show(value)} removed`);
  }
  for (const value of newEnum) {
    if (oldEnum.some((v) => same(v, value))) continue;
    widened(side === "response" ? `enum value ${show(value)} added (clients may receive it)` : `enum value ${show(value)} added`);
  }
}

function compareBound(
  bound: string,
  oldValue: number | undefined,
  newValue: number | undefined,
  tighter: (a: number, b: number) => boolean,
  narrowed: Report,
  widened: Report,
): void {
  if (oldValue === newValue) return;
  if (oldValue === undefined) narrowed(`${bound} ${newValue} added`);
  else if (newValue === undefined) widened(`${bound} ${oldValue} removed`);
  else if (tighter(oldValue, newValue)) narrowed(`${bound} ${oldValue} -> ${newValue}`);
  else widened(`${bound} ${oldValue} -> ${newValue}`);
}

const show = (value: unknown): string => JSON.stringify(value);
