// The schema half of the breaking-change rules: what a schema allows, flattened (`$ref`s followed,
// `allOf` parts intersected, the nullable wrapper seen through), and the comparison of two such
// views by the side they are on (narrowing a request or widening a response breaks a client).
import { allOfSchemas, LOWER_BOUNDS, type SchemaView, UPPER_BOUNDS, viewSchema } from "../../src/shared/walk.ts";
import type { Context, Json, Report, Side } from "./change.ts";

/**
 * What a schema allows, read by the package's one schema view (viewSchema in src/shared/walk.ts: `$ref`s
 * followed, `allOf` parts intersected with the tighter bounds, the nullable wrapper seen through).
 * A schema with properties and no type is an object here (or null, in a nullable wrapper): adding
 * `type: object` to it changes nothing.
 */
function flatten(doc: Json, raw: Json): SchemaView {
  const view = viewSchema(doc, raw);
  if (!view.types && (view.properties.size > 0 || view.additional.length > 0)) view.types = new Set(view.wrapped ? ["object", "null"] : ["object"]);
  return view;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

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
  for (const bound of LOWER_BOUNDS) compareBound(bound, old[bound], now[bound], (a, b) => b > a, narrowed, widened);
  for (const bound of UPPER_BOUNDS) compareBound(bound, old[bound], now[bound], (a, b) => b < a, narrowed, widened);
  const oldPattern = old.patterns.join(" and ") || undefined;
  const newPattern = now.patterns.join(" and ") || undefined;
  if (oldPattern !== newPattern) {
    if (newPattern === undefined) widened(`pattern removed`);
    else if (oldPattern === undefined) narrowed(`pattern ${newPattern} added`);
    else {
      narrowed(`pattern changed to ${newPattern}`);
      widened(`pattern changed to ${newPattern}`);
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
    compareSchemas(ctx, side, field, allOfSchemas(list), allOfSchemas(next), seen);
  }
  for (const name of now.properties.keys()) {
    if (old.properties.has(name)) continue;
    const field = `${where}.${name}`;
    if (side === "request" && now.required.has(name)) ctx.record("breaking", side, field, "required field added", ctx.operation);
    else ctx.record("non-breaking", side, field, "field added", ctx.operation);
  }
  if (side === "request" && !old.closed && now.closed) narrowed("unknown fields are now rejected");
  if (side === "request" && old.closed && !now.closed) widened("unknown fields are now accepted");

  if (old.items.length && now.items.length) compareSchemas(ctx, side, `${where}[]`, allOfSchemas(old.items), allOfSchemas(now.items), seen);
  if (old.additional.length && now.additional.length) compareSchemas(ctx, side, `${where}{}`, allOfSchemas(old.additional), allOfSchemas(now.additional), seen);

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
