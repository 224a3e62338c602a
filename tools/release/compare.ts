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
import { deref, listOperations, type OperationEntry } from "../../src/shared/walk.ts";
import type { Change, Context, Json, RecordChange, Side } from "./change.ts";
import { compareSchemas } from "./compare-schemas.ts";

export type { Change, Impact, Side } from "./change.ts";

/** Every change from `base` (the released bundle) to `revision` (the bundle being released). */
export function compareDocuments(base: Json, revision: Json): Change[] {
  const changes = new Map<string, Change>();
  const record: RecordChange = (impact, side, where, message, operation) => {
    const key = `${impact}|${side}|${where}|${message}`;
    const change: Change = changes.get(key) ?? { impact, side, where, message, operations: [] };
    if (operation && !change.operations.includes(operation)) change.operations.push(operation);
    changes.set(key, change);
  };

  compareOperations(base, revision, record);
  compareNamedSchemas(base, revision, record);
  compareSecuritySchemes(base, revision, record);
  return [...changes.values()].sort((a, b) => order(a) - order(b) || a.where.localeCompare(b.where) || a.message.localeCompare(b.message));
}

function order(change: Change): number {
  return (change.impact === "breaking" ? 0 : 10) + ["document", "request", "response"].indexOf(change.side);
}

function compareOperations(base: Json, revision: Json, record: RecordChange): void {
  const byKey = (doc: Json): Map<string, OperationEntry> => new Map(listOperations(doc).map((entry) => [`${entry.method.toUpperCase()} ${entry.path}`, entry]));
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
    const ctx: Context = { base, revision, record, operation };
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
  const old: Json = oldRaw ? deref(ctx.base, oldRaw) : undefined;
  const now: Json = newRaw ? deref(ctx.revision, newRaw) : undefined;
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
    const old: Json = deref(ctx.base, oldRaw);
    const now: Json = deref(ctx.revision, newRaw);
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
    const old: Json = deref(ctx.base, header);
    const now: Json = deref(ctx.revision, next.header);
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
