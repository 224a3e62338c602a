// Compares two bundled OpenAPI documents the way a client of the API sees them, and says of each
// change whether it can break such a client. A change is judged by the side it is on:
//   request side (parameters, request bodies): breaking when it narrows what a client may send
//     (a field or parameter removed or made required, a type, enum, format or bound narrowed,
//     an object closed to unknown fields);
//   response side (response bodies and headers): breaking when it widens what a client must accept
//     (a field made optional or nullable, a type, enum, format or bound widened), or removes what a
//     client may read.
// Removed paths, operations, fields, enum values and named schemas are breaking on either side:
// the generated TypeScript types lose them, so code that names them stops compiling.
// Descriptions, examples and other documentation-only keywords are not compared.
//
// `walk` is src/shared/walk.ts; it is passed in so this module stays a plain function of its inputs.
import type * as Walk from "../../src/shared/walk.ts";
import type { DocumentNode, OperationEntry } from "../../src/shared/walk.ts";

export type Impact = "breaking" | "non-breaking";
export type Side = "request" | "response" | "document";
export interface Change {
  impact: Impact;
  side: Side;
  /** A path and method, a parameter, or a schema location such as `Deployment.tenant_id`. */
  where: string;
  message: string;
  /** The operationIds that reach the change. */
  operations: string[];
}

// Both documents are JSON read by shape.
type Json = DocumentNode;
type RecordChange = (impact: Impact, side: Side, where: string, message: string, operation?: string) => void;
type Report = (message: string) => void;

/** What every comparison of one operation needs: both documents, the walk, where to record, and the operation. */
interface Context {
  base: Json;
  revision: Json;
  walk: typeof Walk;
  record: RecordChange;
  operation: string;
}

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

/** Every change from `base` (the released bundle) to `revision` (the bundle being released). */
export function compareDocuments(base: Json, revision: Json, walk: typeof Walk): Change[] {
  const changes = new Map<string, Change>();
  const record: RecordChange = (impact, side, where, message, operation) => {
    const key = `${impact}|${side}|${where}|${message}`;
    const change: Change = changes.get(key) ?? { impact, side, where, message, operations: [] };
    if (operation && !change.operations.includes(operation)) change.operations.push(operation);
    changes.set(key, change);
  };

  compareOperations(base, revision, walk, record);
  compareNamedSchemas(base, revision, record);
  compareSecuritySchemes(base, revision, record);
  return [...changes.values()].sort((a, b) => order(a) - order(b) || a.where.localeCompare(b.where) || a.message.localeCompare(b.message));
}

function order(change: Change): number {
  return (change.impact === "breaking" ? 0 : 10) + ["document", "request", "response"].indexOf(change.side);
}

function compareOperations(base: Json, revision: Json, walk: typeof Walk, record: RecordChange): void {
  const byKey = (doc: Json): Map<string, OperationEntry> =>
    new Map(walk.listOperations(doc).map((entry) => [`${entry.method.toUpperCase()} ${entry.path}`, entry]));
  const before = byKey(base);
  const after = byKey(revision);
  for (const path of Object.keys(base.paths ?? {})) {
    if (!(path in (revision.paths ?? {}))) record("breaking", "document", path, "path removed");
  }
  for (const path of Object.keys(revision.paths ?? {})) {
    if (!(path in (base.paths ?? {}))) record("non-breaking", "document", path, "path added");
  }
  for (const [key, entry] of before) {
    if (!after.has(key) && entry.path in (revision.paths ?? {})) record("breaking", "document", key, "operation removed");
  }
  for (const [key, entry] of after) {
    if (!before.has(key) && entry.path in (base.paths ?? {})) record("non-breaking", "document", key, "operation added");
  }
  for (const [key, old] of before) {
    const now = after.get(key);
    if (!now) continue;
    const operation = now.operationId ?? key;
    const ctx: Context = { base, revision, walk, record, operation };
    if (old.operationId !== now.operationId) record("breaking", "document", key, `operationId ${old.operationId} renamed to ${now.operationId}`, operation);
    compareParameters(ctx, key, old.parameters, now.parameters);
    compareRequestBody(ctx, key, old.operation.requestBody, now.operation.requestBody);
    compareResponses(ctx, key, old.operation.responses ?? {}, now.operation.responses ?? {});
    compareSecurity(ctx, key, old.operation.security ?? base.security ?? [], now.operation.security ?? revision.security ?? []);
  }
}

// Header names are case-insensitive; query and path names are not.
const parameterKey = (p: Json): string => `${p.in}:${p.in === "header" ? p.name.toLowerCase() : p.name}`;

function compareParameters(ctx: Context, key: string, oldParams: Json[], newParams: Json[]): void {
  const before = new Map(oldParams.map((p) => [parameterKey(p), p]));
  const after = new Map(newParams.map((p) => [parameterKey(p), p]));
  for (const [k, p] of before) {
    const where = `${key} ${p.in} parameter ${p.name}`;
    const q = after.get(k);
    if (!q) {
      ctx.record("breaking", "request", where, "parameter removed", ctx.operation);
      continue;
    }
    if (!p.required && q.required) ctx.record("breaking", "request", where, "parameter made required", ctx.operation);
    if (p.required && !q.required) ctx.record("non-breaking", "request", where, "parameter made optional", ctx.operation);
    compareSchemas(ctx, "request", where, p.schema ?? {}, q.schema ?? {}, new Set());
  }
  for (const [k, q] of after) {
    if (before.has(k)) continue;
    const where = `${key} ${q.in} parameter ${q.name}`;
    if (q.required) ctx.record("breaking", "request", where, "required parameter added", ctx.operation);
    else ctx.record("non-breaking", "request", where, "optional parameter added", ctx.operation);
  }
}

function compareRequestBody(ctx: Context, key: string, oldRaw: Json, newRaw: Json): void {
  const where = `${key} request body`;
  const old: Json = oldRaw ? ctx.walk.deref(ctx.base, oldRaw) : undefined;
  const now: Json = newRaw ? ctx.walk.deref(ctx.revision, newRaw) : undefined;
  if (!old && !now) return;
  if (!now) {
    ctx.record("breaking", "request", where, "request body removed", ctx.operation);
    return;
  }
  if (!old) {
    const impact = now.required ? "breaking" : "non-breaking";
    ctx.record(impact, "request", where, now.required ? "required request body added" : "optional request body added", ctx.operation);
    return;
  }
  if (!old.required && now.required) ctx.record("breaking", "request", where, "request body made required", ctx.operation);
  compareContent(ctx, "request", where, old.content ?? {}, now.content ?? {});
}

function compareContent(ctx: Context, side: Side, where: string, oldContent: Record<string, Json>, newContent: Record<string, Json>): void {
  for (const [media, oldMedia] of Object.entries(oldContent)) {
    const newMedia = newContent[media];
    if (!newMedia) {
      ctx.record("breaking", side, where, `media type ${media} removed`, ctx.operation);
      continue;
    }
    compareSchemas(ctx, side, where, oldMedia.schema ?? {}, newMedia.schema ?? {}, new Set());
  }
  for (const media of Object.keys(newContent)) {
    if (!(media in oldContent)) ctx.record("non-breaking", side, where, `media type ${media} added`, ctx.operation);
  }
}

function compareResponses(ctx: Context, key: string, oldResponses: Record<string, Json>, newResponses: Record<string, Json>): void {
  const isSuccess = (status: string) => /^2/.test(status);
  for (const [status, oldRaw] of Object.entries(oldResponses)) {
    const where = `${key} response ${status}`;
    const newRaw = newResponses[status];
    if (!newRaw) {
      // A client cannot lose anything when an error status is no longer documented; it can when the success is.
      ctx.record(isSuccess(status) ? "breaking" : "non-breaking", "response", where, "response removed", ctx.operation);
      continue;
    }
    const old: Json = ctx.walk.deref(ctx.base, oldRaw);
    const now: Json = ctx.walk.deref(ctx.revision, newRaw);
    compareHeaders(ctx, where, old.headers ?? {}, now.headers ?? {});
    compareContent(ctx, "response", where, old.content ?? {}, now.content ?? {});
  }
  for (const status of Object.keys(newResponses)) {
    if (status in oldResponses) continue;
    // A new success status is an answer clients were never told to expect; a new error status is one more 4xx/5xx they already handle.
    ctx.record(isSuccess(status) ? "breaking" : "non-breaking", "response", `${key} response ${status}`, "response added", ctx.operation);
  }
}

function compareHeaders(ctx: Context, where: string, oldHeaders: Record<string, Json>, newHeaders: Record<string, Json>): void {
  const lower = (headers: Record<string, Json>): Map<string, { name: string; header: Json }> =>
    new Map(Object.entries(headers).map(([name, h]) => [name.toLowerCase(), { name, header: h }]));
  const before = lower(oldHeaders);
  const after = lower(newHeaders);
  for (const [k, { name, header }] of before) {
    const at = `${where} header ${name}`;
    const next = after.get(k);
    if (!next) {
      ctx.record("breaking", "response", at, "header removed", ctx.operation);
      continue;
    }
    const old: Json = ctx.walk.deref(ctx.base, header);
    const now: Json = ctx.walk.deref(ctx.revision, next.header);
    if (old.required && !now.required) ctx.record("breaking", "response", at, "header made optional", ctx.operation);
    compareSchemas(ctx, "response", at, old.schema ?? {}, now.schema ?? {}, new Set());
  }
  for (const [k, { name }] of after) {
    if (!before.has(k)) ctx.record("non-breaking", "response", `${where} header ${name}`, "header added", ctx.operation);
  }
}

// A security requirement is a set of scheme names that must all be satisfied; the operation
// accepts a request that satisfies any one requirement ({} is anonymous access).
function compareSecurity(ctx: Context, key: string, oldSecurity: Json[], newSecurity: Json[]): void {
  const sets = (security: Json[]): string[][] => security.map((requirement) => Object.keys(requirement).sort());
  const before = sets(oldSecurity.length ? oldSecurity : [{}]);
  const after = sets(newSecurity.length ? newSecurity : [{}]);
  const satisfiedBy = (offered: string[], accepted: string[][]) => accepted.some((needed) => needed.every((name) => offered.includes(name)));
  for (const offered of before) {
    if (!satisfiedBy(offered, after)) {
      ctx.record("breaking", "request", `${key} security`, `a request with ${describeRequirement(offered)} is no longer accepted`, ctx.operation);
    }
  }
  for (const offered of after) {
    if (!satisfiedBy(offered, before)) ctx.record("non-breaking", "request", `${key} security`, `also accepts ${describeRequirement(offered)}`, ctx.operation);
  }
}

function describeRequirement(names: string[]): string {
  return names.length === 0 ? "no credentials" : names.join(" + ");
}

function compareNamedSchemas(base: Json, revision: Json, record: RecordChange): void {
  const before = base.components?.schemas ?? {};
  const after = revision.components?.schemas ?? {};
  for (const name of Object.keys(before)) {
    if (!(name in after)) record("breaking", "document", `components.schemas.${name}`, "schema removed (its generated type is gone)");
  }
  for (const name of Object.keys(after)) {
    if (!(name in before)) record("non-breaking", "document", `components.schemas.${name}`, "schema added");
  }
}

function compareSecuritySchemes(base: Json, revision: Json, record: RecordChange): void {
  const before = base.components?.securitySchemes ?? {};
  const after = revision.components?.securitySchemes ?? {};
  for (const [name, old] of Object.entries<Json>(before)) {
    const now = after[name];
    const where = `components.securitySchemes.${name}`;
    if (!now) record("breaking", "document", where, "security scheme removed");
    else if (old.type !== now.type || old.in !== now.in || String(old.name).toLowerCase() !== String(now.name).toLowerCase() || old.scheme !== now.scheme) {
      record("breaking", "document", where, `security scheme changed (${describeScheme(old)} -> ${describeScheme(now)})`);
    }
  }
  for (const name of Object.keys(after))
    if (!(name in before)) record("non-breaking", "document", `components.securitySchemes.${name}`, "security scheme added");
}

function describeScheme(s: Json): string {
  return [s.type, s.in, s.name, s.scheme].filter(Boolean).join(" ");
}

// ---- schemas ----------------------------------------------------------------------------------

/**
 * What a schema allows, flattened: `$ref`s followed, `allOf` parts intersected, the nullable
 * wrapper `anyOf: [X, {type: "null"}]` seen through (null joins the types).
 */
function flatten(doc: Json, walk: typeof Walk, raw: Json, depth = 0): Flat {
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
    if (match) out.name = walk.unescapePointerSegment(match[1]!);
  }
  const schema: Json = walk.deref(doc, raw) ?? {};
  // OpenAPI 3.1 lets keywords sit beside a $ref; they apply too.
  const siblings = raw && typeof raw.$ref === "string" ? Object.fromEntries(Object.entries(raw).filter(([k]) => k !== "$ref")) : undefined;
  for (const part of [schema, siblings].filter(Boolean)) mergeInto(out, doc, walk, part, depth);
  return out;
}

function mergeInto(out: Flat, doc: Json, walk: typeof Walk, schema: Json, depth: number): void {
  let partName: string | undefined;
  for (const part of schema.allOf ?? []) {
    const inner = flatten(doc, walk, part, depth + 1);
    intersect(out, inner);
    partName = inner.name ?? partName;
  }
  // An unnamed allOf is reported under its last named part (a request variant comes after the schema it extends).
  out.name ??= partName;
  const branches = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(branches)) {
    const { schema: single, nullable } = walk.unwrapNullable(doc, schema);
    if (single !== schema) {
      const inner = flatten(
        doc,
        walk,
        branches.find((b: Json) => !walk.isNullBranch(doc, b)),
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
function compareSchemas(ctx: Context, side: Side, where: string, oldRaw: Json, newRaw: Json, seen: Set<string>): void {
  const old = flatten(ctx.base, ctx.walk, oldRaw);
  const now = flatten(ctx.revision, ctx.walk, newRaw);
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
