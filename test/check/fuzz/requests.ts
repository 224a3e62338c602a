// Requests generated from the document: a valid request for each of its operations (path ids from
// the simulator's seed or random, query parameters within their schemas, bodies drawn from the
// request schemas by schema-arbitrary.ts), and mutations of it: wrong types, values at and just
// past every bound (the schemas' and the local servers' request bounds), unknown and duplicated
// fields and parameters, encodings, case, media types, header shapes and sizes.
//
// Each case says what the answer must be:
// - "valid": the document accepts the request: 200, or 404 for an id that names nothing;
// - "invalid": the document (or a request bound of src/gate/bounds.ts) refuses it: a 4xx other than 404;
// - "equivalent": it means the same as `original` (case of a UUID or a header name, media type
//   parameters, a percent-escaped letter, an unknown query parameter): the same status as `original`;
// - "any": the document does not decide (a BOM, bytes that are not UTF-8, a repeated single-valued
//   parameter): only the invariants every answer has, and the mock and the simulator must agree.
import fc from "fast-check";
import { checkJsonBounds, REQUEST_BOUNDS } from "../../../src/gate/bounds.js";
import { SEED_IDS, seedState } from "../../../src/simulator/core/seed.js";
import { sourceViolations } from "../../../src/shared/source-rules.js";
import type { DeploymentPatch } from "../../../src/shared/types.js";
import { createOpenApiValidator } from "../../support/openapi-validator.js";
import { deref, listOperations, type OperationEntry } from "../../../src/shared/walk.js";
import { document } from "../../support/document.js";
import { anyText, arbitraryFor, flatten } from "./schema-arbitrary.js";
import type { WireRequest } from "./targets.js";

export type Expectation = "valid" | "invalid" | "equivalent" | "any";

export interface Case extends WireRequest {
  operationId: string;
  /** What was done to the valid request ("none" for the valid request itself). */
  mutation: string;
  expect: Expectation;
  /** The request a mutation marked "equivalent" must be answered like. */
  original?: WireRequest;
}

/** A valid request before it is put on the wire. */
export interface Parts {
  op: OperationEntry;
  pathValues: Record<string, string>;
  /** Query parameters, name and serialized value, before percent-encoding. */
  query: [string, string][];
  headers: [string, string][];
  body?: unknown;
}

export const OPERATIONS = listOperations(document);
const validator = createOpenApiValidator(document);
const encoder = new TextEncoder();

/**
 * A deployment of the other tenant that is scm_host, as the first seeded one is: a valid patch fits
 * both of their sources (src/shared/source-rules.ts). The mock does not know a deployment's source,
 * so a patch that breaks the table is a request the two servers answer differently by design.
 */
const OTHER_TENANT_SCM_DEPLOYMENT = seedState().deployments.find(
  (r) => r.deployment.tenant_id === SEED_IDS.other_tenant_id && r.deployment.source === "scm_host",
)!.deployment.id;
const SEED_DEPLOYMENTS = [SEED_IDS.deployment_id, OTHER_TENANT_SCM_DEPLOYMENT];

/** A patch body without the fields an scm_host deployment does not take (the body as it is when it fits). */
function fittingScmHost(body: unknown): unknown {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return body;
  const { revisionSource, fields } = sourceViolations("scm_host", body as DeploymentPatch);
  if (!revisionSource && fields.length === 0) return body;
  const copy = structuredClone(body) as Record<string, Record<string, unknown>>;
  if (revisionSource) delete copy.revision_source;
  for (const field of fields) {
    const [section, name] = field.pointer.slice(1).split("/");
    if (name === undefined) delete copy[section!];
    else delete copy[section!]![name];
  }
  return copy;
}
/** Path parameter values the seed knows, by parameter name; a random value of the schema is drawn besides. */
const SEEDED: Record<string, string[]> = {
  deployment_id: SEED_DEPLOYMENTS,
  revision_id: [SEED_IDS.revision_id],
  listener_id: [SEED_IDS.listener_id],
  provider_id: [SEED_IDS.provider_id, SEED_IDS.pkce_provider_id],
  agent_id: [SEED_IDS.agent_id, SEED_IDS.agent_without_connections_id],
  integration_id: [SEED_IDS.scm_integration_id, SEED_IDS.forge_integration_id],
};

function requestBodySchema(op: OperationEntry): any {
  return deref<any>(document, op.operation.requestBody).content["application/json"].schema;
}

/** Whether the document and the request bounds accept this parsed body for the operation. */
export function bodyAccepted(op: OperationEntry, body: unknown): boolean {
  if (!op.operation.requestBody) return true;
  if (checkJsonBounds(body).length > 0) return false;
  return validator.validatorFor(requestBodySchema(op), `body:${op.operationId}`)(body) === true;
}

function schemaOf(parameter: any): any {
  return deref<any>(document, parameter.schema ?? {});
}

/** How a query value is written: arrays comma-separated (style form, explode false), the rest as text. */
function serialize(value: unknown): string {
  return Array.isArray(value) ? value.map(String).join(",") : String(value);
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** Text with no lone surrogate: text UTF-8 can carry. */
function wellFormed(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

/** A valid request for an operation. */
export function validParts(op: OperationEntry): fc.Arbitrary<Parts> {
  const pathArbs: Record<string, fc.Arbitrary<string>> = {};
  const queryArbs: Record<string, fc.Arbitrary<string>> = {};
  for (const p of op.parameters) {
    const schema = schemaOf(p);
    if (p.in === "path") {
      // A URI carries text as UTF-8: a lone surrogate has no encoding, so a valid value has none (the broken-escape mutation sends such bytes).
      const random =
        schema.format === "uuid"
          ? fc.uuid()
          : fc.oneof(
              fc.stringMatching(/^[a-z][a-z0-9-]{0,15}$/),
              anyText(8).filter((s) => s !== "" && wellFormed(s)),
            );
      pathArbs[p.name] = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...(SEEDED[p.name] ?? ["x"])) }, { weight: 1, arbitrary: random });
    } else if (p.in === "query") {
      // An array is sent as at least one item: an empty one reads as one empty item.
      const value = flatten(schema).types?.has("array")
        ? fc.array(arbitraryFor(schema.items), { minLength: 1, maxLength: 3 })
        : arbitraryFor(schema).filter((v) => v !== null);
      queryArbs[p.name] = value.map(serialize).filter(wellFormed);
    }
  }
  const tenant = fc.option(fc.constantFrom(SEED_IDS.tenant_id, SEED_IDS.other_tenant_id), { nil: undefined });
  const drawn = op.operation.requestBody ? arbitraryFor(requestBodySchema(op)) : fc.constant(undefined);
  const body = op.operationId === "patchDeployment" ? drawn.map(fittingScmHost) : drawn;
  return fc
    .record({
      pathValues: fc.record(pathArbs),
      query: fc.record(queryArbs, { requiredKeys: [] }),
      tenant,
      body,
    })
    .map(({ pathValues, query, tenant, body }) => {
      const headers: [string, string][] = [["x-api-key", "dev"]];
      if (tenant) headers.push(["x-tenant-id", tenant]);
      if (body !== undefined) headers.push(["content-type", "application/json"]);
      return { op, pathValues, query: Object.entries(query) as [string, string][], headers, ...(body !== undefined ? { body } : {}) };
    });
}

/** Encodes every character but the unreserved ones (RFC 3986), so a value stays one segment or one query value. */
export function encode(value: string): string {
  // A lone surrogate (which encodeURIComponent refuses) goes out as its WTF-8 bytes: escapes that are not UTF-8.
  const escapable = value.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, (s) => {
    const u = s.charCodeAt(0);
    return `\u0000WTF${[0xe0 | (u >> 12), 0x80 | ((u >> 6) & 0x3f), 0x80 | (u & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join("")}\u0000`;
  });
  return encodeURIComponent(escapable)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%00WTF((?:%25[0-9A-F]{2}){3})%00/g, (_, bytes: string) => bytes.replace(/%25/g, "%"));
}

export function targetOf(op: OperationEntry, pathValues: Record<string, string>, query: [string, string][], rawPath: Record<string, string> = {}): string {
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => rawPath[name] ?? encode(pathValues[name] ?? ""));
  return query.length === 0 ? path : `${path}?${query.map(([n, v]) => `${encode(n)}=${encode(v)}`).join("&")}`;
}

export function toCase(parts: Parts, mutation = "none", expect: Expectation = "valid"): Case {
  return {
    operationId: parts.op.operationId,
    method: parts.op.method.toUpperCase(),
    target: targetOf(parts.op, parts.pathValues, parts.query),
    headers: parts.headers,
    ...(parts.body !== undefined ? { body: encoder.encode(JSON.stringify(parts.body)) } : {}),
    mutation,
    expect,
  };
}

// --- mutations ------------------------------------------------------------------------------------

type Mutation = (parts: Parts) => fc.Arbitrary<Case> | undefined;

const withHeaders = (parts: Parts, headers: [string, string][]): Parts => ({ ...parts, headers });
const without = (headers: [string, string][], name: string) => headers.filter(([n]) => n.toLowerCase() !== name);

/** Path and query values at and past their bounds, of the wrong type, and junk. */
const queryValue: Mutation = (parts) => {
  const params = parts.op.parameters.filter((p) => p.in === "query");
  if (params.length === 0) return undefined;
  return fc.constantFrom(...params).chain((p) => {
    const schema = schemaOf(p);
    const flat = flatten(schema);
    const candidates: string[] = ["", "abc", "null", "[]", "%", "ü", "a,b"];
    if (flat.types?.has("integer")) {
      const min = flat.minimum ?? -(2 ** 31);
      const max = flat.maximum ?? 2 ** 31 - 1;
      candidates.push(
        String(min - 1),
        String(min),
        String(max),
        String(max + 1),
        String(2 ** 31 - 1),
        String(2 ** 31),
        "1.5",
        "1e1",
        " 1",
        "0x10",
        "-0",
        "Infinity",
        "NaN",
        "1".repeat(400),
      );
    }
    if (flat.types?.has("boolean")) candidates.push("true", "false", "TRUE", "1", "yes");
    const enumValues = (flat.enum ?? (flat.items[0] ? flatten(flat.items[0]).enum : undefined)) as string[] | undefined;
    if (enumValues) candidates.push(...enumValues, ...enumValues.map((e) => e.toLowerCase()), `${enumValues[0]},NOPE`, `${enumValues.join(",")}`);
    if (flat.items[0] && flatten(flat.items[0]).format === "uuid") candidates.push(SEED_IDS.deployment_id, `${SEED_IDS.deployment_id},x`, ",");
    return fc.constantFrom(...candidates).map((raw) => {
      const query = [...parts.query.filter(([n]) => n !== p.name), [p.name, raw] as [string, string]];
      return toCase({ ...parts, query }, `query ${p.name}=${JSON.stringify(raw)}`, queryExpectation(p, schema, raw));
    });
  });
};

/** The coercion the document's servers apply to a query text (numbers by Number(), booleans from true/false, arrays split on commas). */
function queryExpectation(_parameter: any, schema: any, raw: string): Expectation {
  const flat = flatten(schema);
  const array = flat.types?.has("array") === true;
  const itemType = array ? flatten(flat.items[0]!).types : flat.types;
  const numeric = itemType?.has("integer") || itemType?.has("number");
  // Number() also reads these; the document does not say whether a server must.
  if (numeric && ["1e1", " 1", "0x10"].includes(raw)) return "any";
  const coerce = (s: string): unknown => {
    if (numeric) return /^-?\d+(\.\d+)?$/.test(s) ? Number(s) : s;
    if (itemType?.has("boolean")) return s === "true" ? true : s === "false" ? false : s;
    return s;
  };
  const value = array ? raw.split(",").map(coerce) : coerce(raw);
  return validator.validatorFor(schema, `query:${JSON.stringify(schema)}`)(value) ? "valid" : "invalid";
}

/** The same parameter twice (limit=1&limit=2), and a parameter the document does not have. */
const queryShape: Mutation = (parts) =>
  fc.constantFrom("duplicate", "unknown", "unknown-empty", "bare-name", "empty-pair").chain((kind) => {
    if (kind === "duplicate") {
      if (parts.query.length === 0) return fc.constant(toCase(parts));
      return fc.nat(parts.query.length - 1).map((i) => {
        const [name, value] = parts.query[i]!;
        const q = [...parts.query, [name, value] as [string, string]];
        return toCase({ ...parts, query: q }, `query ${name} sent twice with the same value`, "any");
      });
    }
    const original = toCase(parts);
    const extra = kind === "unknown" ? "zzz=1" : kind === "unknown-empty" ? "zzz=" : kind === "bare-name" ? "zzz" : "";
    const target = original.target + (original.target.includes("?") ? "&" : "?") + extra;
    return fc.constant({ ...original, target, mutation: `query shape ${kind} (${extra || "&"})`, expect: "equivalent" as Expectation, original });
  });

/** Path parameters: UUIDs in upper case, a percent-escaped letter, broken escapes, ids that are not UUIDs, dot segments. */
const pathValue: Mutation = (parts) => {
  const params = parts.op.parameters.filter((p) => p.in === "path");
  if (params.length === 0) return undefined;
  return fc.tuple(fc.constantFrom(...params), fc.nat(99)).chain(([p, n]) => {
    const value = parts.pathValues[p.name]!;
    const uuid = schemaOf(p).format === "uuid";
    const original = toCase(parts);
    const kinds = ["escape-letter", "broken-escape", "dots", "junk", ...(uuid ? ["upper", "not-uuid", "nil-uuid"] : [])];
    return fc.constantFrom(...kinds).map((kind): Case => {
      const raw = (text: string, mutation: string, expect: Expectation): Case => ({
        ...original,
        target: targetOf(parts.op, parts.pathValues, parts.query, { [p.name]: text }),
        mutation: `path ${p.name} ${mutation}`,
        expect,
        ...(expect === "equivalent" ? { original } : {}),
      });
      switch (kind) {
        case "upper":
          return raw(value.toUpperCase(), `in upper case (${value.toUpperCase()})`, "equivalent");
        case "escape-letter": {
          const encoded = encode(value);
          // A letter or digit of the value itself, not one inside an escape (%E2).
          const i = encoded.search(/(?<!%[0-9A-F]?)[A-Za-z0-9]/);
          if (i < 0) return original;
          const c = encoded[i]!;
          return raw(`${encoded.slice(0, i)}%${c.charCodeAt(0).toString(16)}${encoded.slice(i + 1)}`, `with ${c} percent-escaped`, "equivalent");
        }
        case "broken-escape": {
          const broken = ["%", "%z", "%zz", "%E0%A4", "%C3%28", "%FF", "%00", "%2", "%ED%A0%80"][n % 9]!;
          return raw(`${encode(value)}${broken}`, `followed by the broken escape ${broken}`, uuid ? "invalid" : "any");
        }
        case "dots":
          return raw([".", "..", "%2e%2e", "%2E", "..%2f.."][n % 5]!, "as a dot segment", "any");
        case "not-uuid":
          return raw(encode([`{${value}}`, `${value}x`, value.slice(1), value.replace(/-/g, ""), "abc", "1", `${value}%20`][n % 7]!), "not a UUID", "invalid");
        case "nil-uuid":
          return raw("00000000-0000-0000-0000-000000000000", "the nil UUID", "valid");
        default:
          return raw(encode(["ü", "日本", "😀", "a b", "<x>", "a/b", "\u0000", "%"][n % 8]!), "junk", uuid ? "invalid" : "any");
      }
    });
  });
};

/** X-Api-Key and X-Tenant-Id shapes, and header names in other cases. */
const headerShape: Mutation = (parts) => {
  const original = toCase(parts);
  const rest = without(parts.headers, "x-api-key");
  const noTenant = without(parts.headers, "x-tenant-id");
  const tenant = parts.headers.find(([n]) => n === "x-tenant-id")?.[1] ?? SEED_IDS.tenant_id;
  const variants: [string, [string, string][], Expectation][] = [
    ["no X-Api-Key", rest, "invalid"],
    ["empty X-Api-Key", [["x-api-key", ""], ...rest], "invalid"],
    ["X-Api-Key of spaces", [["x-api-key", "   "], ...rest], "any"],
    ["X-Api-Key twice", [["x-api-key", "dev"], ["x-api-key", "other"], ...rest], "any"],
    ["X-Api-Key with Latin-1", [["x-api-key", "d\u00e9v"], ...rest], "any"],
    ["X-API-KEY in upper case", [["X-API-KEY", "dev"], ...rest], "equivalent"],
    ["x-Api-kEY in mixed case", [["x-Api-kEY", "dev"], ...rest], "equivalent"],
    ["X-Tenant-Id not a UUID", [...noTenant, ["x-tenant-id", "acme"]], "invalid"],
    ["X-Tenant-Id empty", [...noTenant, ["x-tenant-id", ""]], "invalid"],
    ["X-Tenant-Id in braces", [...noTenant, ["x-tenant-id", `{${tenant}}`]], "invalid"],
    ["X-Tenant-Id twice", [...noTenant, ["x-tenant-id", tenant], ["x-tenant-id", SEED_IDS.other_tenant_id]], "invalid"],
    ["X-Tenant-Id with a trailing junk", [...noTenant, ["x-tenant-id", `${tenant}x`]], "invalid"],
    ["X-Tenant-Id in upper case", [...noTenant, ["X-Tenant-Id", tenant.toUpperCase()]], "equivalent"],
    ["an unknown header", [...parts.headers, ["x-zzz", "1"]], "equivalent"],
  ];
  return fc.constantFrom(...variants).map(([mutation, headers, expect]) => {
    // Upper case compares against the same tenant in lower case.
    const base = mutation.includes("Tenant-Id in upper") ? toCase(withHeaders(parts, [...noTenant, ["x-tenant-id", tenant]])) : original;
    return { ...base, headers, mutation: `header ${mutation}`, expect, ...(expect === "equivalent" ? { original: base } : {}) };
  });
};

/** Content-Type of a body: missing, with parameters, in upper case, several, junk. */
const mediaType: Mutation = (parts) => {
  if (parts.body === undefined) return undefined;
  const original = toCase(parts);
  const rest = without(parts.headers, "content-type");
  const variants: [string | undefined, Expectation][] = [
    [undefined, "invalid"],
    ["application/json; charset=utf-8", "equivalent"],
    ["application/json;charset=UTF-8", "equivalent"],
    ['application/json ; charset="utf-8"', "equivalent"],
    ["APPLICATION/JSON", "equivalent"],
    ["Application/Json", "equivalent"],
    ["application/json, text/plain", "invalid"],
    ["text/plain", "invalid"],
    ["application/x-www-form-urlencoded", "invalid"],
    ["multipart/form-data; boundary=x", "invalid"],
    ["application/merge-patch+json", "invalid"],
    ["application/", "invalid"],
    ["*/*", "invalid"],
    [";", "invalid"],
    ["", "invalid"],
    ["application/json\u00e9", "invalid"],
  ];
  return fc.constantFrom(...variants).map(([value, expect]) => ({
    ...original,
    headers: value === undefined ? rest : [...rest, ["content-type", value] as [string, string]],
    mutation: value === undefined ? "no Content-Type" : `Content-Type ${JSON.stringify(value)}`,
    expect,
    ...(expect === "equivalent" ? { original } : {}),
  }));
};

/** Every node of a JSON value, with its path. */
function nodes(value: unknown, path: (string | number)[] = [], out: { path: (string | number)[]; value: unknown }[] = []) {
  out.push({ path, value });
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) nodes(value[i], [...path, i], out);
  } else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) nodes(v, [...path, k], out);
  return out;
}

function setAt(root: unknown, path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const copy: any = structuredClone(root);
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key];
  node[path.at(-1)!] = value;
  return copy;
}

const OTHER_TYPES: unknown[] = [null, true, 0, -1, 1.5, "", "x", [], {}, [1], { a: 1 }, 1e300, -0];

/** A value of another type at a random place, an unknown field, a required field dropped, a name outside Latin-1. */
const bodyShape: Mutation = (parts) => {
  if (parts.body === undefined) return undefined;
  const all = nodes(parts.body);
  const objects = all.filter((n) => n.value && typeof n.value === "object" && !Array.isArray(n.value));
  return fc
    .tuple(fc.nat(all.length - 1), fc.nat(OTHER_TYPES.length - 1), fc.constantFrom("type", "unknown", "drop", "name"), anyText(8))
    .map(([i, t, kind, name]) => {
      let body: unknown;
      let mutation: string;
      if (kind === "type") {
        const target = all[i]!;
        body = setAt(parts.body, target.path, OTHER_TYPES[t]);
        mutation = `body /${target.path.join("/")} = ${JSON.stringify(OTHER_TYPES[t])}`;
      } else {
        const target = objects[i % Math.max(objects.length, 1)] ?? { path: [], value: {} };
        const object = { ...(target.value as Record<string, unknown>) };
        const keys = Object.keys(object);
        if (kind === "drop" && keys.length > 0) {
          const key = keys[i % keys.length]!;
          delete object[key];
          mutation = `body /${target.path.join("/")} without ${key}`;
        } else {
          const key = kind === "name" ? ["ключ", "名前", "😀", "\u0100", "\uffff", "é"][t % 6]! : name === "__proto__" ? "zzz" : name || "zzz";
          object[key] = OTHER_TYPES[t];
          mutation = `body /${target.path.join("/")} with field ${JSON.stringify(key)}`;
        }
        body = setAt(parts.body, target.path, object);
      }
      const c = toCase({ ...parts, body }, mutation);
      return { ...c, expect: bodyAccepted(parts.op, body) ? "valid" : "invalid" };
    });
};

const utf8 = (text: string) => encoder.encode(text);
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

/** Bytes no schema speaks of: a BOM, bytes that are not UTF-8, duplicated keys, broken and empty JSON. */
const bodyBytes: Mutation = (parts) => {
  if (parts.body === undefined) return undefined;
  const original = toCase(parts);
  const text = JSON.stringify(parts.body);
  const firstKey = parts.body && typeof parts.body === "object" ? Object.keys(parts.body)[0] : undefined;
  const stringField: [string, string] =
    parts.op.operationId === "patchListener" ? ['{"version":"a', '"}'] : ['{"source_revision_config":{"repo_ref":"a', '"}}'];
  const variants: [string, Uint8Array, Expectation][] = [
    ["a byte-order mark before it", concat(new Uint8Array([0xef, 0xbb, 0xbf]), utf8(text)), "any"],
    ["UTF-16 with a BOM", concat(new Uint8Array([0xff, 0xfe]), new Uint8Array(Buffer.from(text, "utf16le"))), "any"],
    ["a byte 0xFF in a string", concat(utf8(stringField[0]), new Uint8Array([0xff]), utf8(stringField[1])), "any"],
    ["an overlong encoding in a name", concat(utf8('{"'), new Uint8Array([0xc0, 0xaf]), utf8('":1}')), "invalid"],
    ["a truncated UTF-8 sequence", concat(utf8(text.slice(0, -1)), new Uint8Array([0xe2, 0x82]), utf8("}")), "any"],
    ["cut short", utf8(text.slice(0, Math.max(1, text.length - 1))), "invalid"],
    ["empty", new Uint8Array(), "invalid"],
    ["only spaces", utf8("   \n"), "invalid"],
    ["null", utf8("null"), "invalid"],
    ["an array", utf8(`[${text}]`), "invalid"],
    ["a string", utf8(JSON.stringify(text)), "invalid"],
    ["two JSON values", utf8(`${text} ${text}`), "invalid"],
    ["a comment", utf8(`/* x */${text}`), "invalid"],
    ["trailing whitespace", utf8(`${text}\n\t `), "equivalent"],
    [
      "a duplicated key",
      firstKey !== undefined ? utf8(`{${JSON.stringify(firstKey)}:${JSON.stringify((parts.body as any)[firstKey])},${text.slice(1)}`) : utf8(text),
      firstKey !== undefined ? "any" : "equivalent",
    ],
    ["escaped name", utf8(text.replace(/"([a-z])/, (_, c: string) => `"\\u00${c.charCodeAt(0).toString(16)}`)), "equivalent"],
  ];
  return fc.constantFrom(...variants).map(([mutation, body, expect]) => ({
    ...original,
    body,
    mutation: `body ${mutation}`,
    expect,
    ...(expect === "equivalent" ? { original } : {}),
  }));
};

/** Bodies of the operation at and just past each request bound and each schema bound: a name and a maker of the value. */
function boundBodies(op: OperationEntry): [string, () => unknown][] {
  const B = REQUEST_BOUNDS;
  const nest = (levels: number): unknown => {
    let v: unknown = {};
    for (let i = 0; i < levels; i++) v = { a: v };
    return v;
  };
  if (op.operationId === "patchListener") {
    return [
      [`version of ${B.maxStringLength} characters`, () => ({ version: "v".repeat(B.maxStringLength) })],
      [`version of ${B.maxStringLength + 1} characters`, () => ({ version: "v".repeat(B.maxStringLength + 1) })],
      [`version of ${B.maxStringLength} characters outside Latin-1`, () => ({ version: "日".repeat(B.maxStringLength) })],
      [`${B.maxArrayItems} namespaces`, () => ({ compute_config: { k8s_namespaces: Array.from({ length: B.maxArrayItems }, (_, i) => `ns-${i}`) } })],
      [`${B.maxArrayItems + 1} namespaces`, () => ({ compute_config: { k8s_namespaces: Array.from({ length: B.maxArrayItems + 1 }, (_, i) => `ns-${i}`) } })],
      [`a field name of ${B.maxStringLength + 1} characters`, () => ({ ["k".repeat(B.maxStringLength + 1)]: 1 })],
    ];
  }
  // Depth: the body is 1, source_config 2, resource_spec 3, sidecars 4, the container 5, securityContext 6.
  const sidecarWith = (securityContext: unknown) => ({
    source_config: { resource_spec: { sidecars: [{ name: "s", image: "busybox", securityContext }] } },
  });
  const labels = (n: number) => ({ source_config: { resource_spec: { labels: Object.fromEntries(Array.from({ length: n }, (_, i) => [`l${i}`, "v"])) } } });
  const spec = (field: string, value: unknown) => ({ source_config: { resource_spec: { [field]: value } } });
  return [
    [`nested ${B.maxDepth} levels`, () => sidecarWith(nest(B.maxDepth - 6))],
    [`nested ${B.maxDepth + 1} levels`, () => sidecarWith(nest(B.maxDepth - 5))],
    [`repo_ref of ${B.maxStringLength} characters`, () => ({ source_revision_config: { repo_ref: "r".repeat(B.maxStringLength) } })],
    [`repo_ref of ${B.maxStringLength + 1} characters`, () => ({ source_revision_config: { repo_ref: "r".repeat(B.maxStringLength + 1) } })],
    [`${B.maxArrayItems} secrets`, () => ({ secrets: Array.from({ length: B.maxArrayItems }, (_, i) => ({ name: `S${i}`, value: "v" })) })],
    [`${B.maxArrayItems + 1} secrets`, () => ({ secrets: Array.from({ length: B.maxArrayItems + 1 }, (_, i) => ({ name: `S${i}`, value: "v" })) })],
    [`${B.maxProperties} labels`, () => labels(B.maxProperties)],
    [`${B.maxProperties + 1} labels`, () => labels(B.maxProperties + 1)],
    ...[0.1, 8, 0.09999999, 8.0000001, 0, -1].map((cpu): [string, () => unknown] => [`cpu ${cpu}`, () => spec("cpu", cpu)]),
    ...[0.1, 16, 16.000001].map((v): [string, () => unknown] => [`cpu_limit ${v}`, () => spec("cpu_limit", v)]),
    ["min_scale 1e308", () => spec("min_scale", 1e308)],
    ["min_scale -1e308", () => spec("min_scale", -1e308)],
  ];
}

/** Bodies near the request bounds and the schemas' bounds, and whole bodies near the size bound. */
const bodyBounds: Mutation = (parts) => {
  if (parts.body === undefined) return undefined;
  const original = toCase(parts);
  const max = REQUEST_BOUNDS.maxBodyBytes;
  const text = JSON.stringify(parts.body);
  // Made only once chosen: some are megabytes.
  const variants: [string, () => { body: Uint8Array; expect: Expectation }][] = boundBodies(parts.op).map(([name, make]) => [
    name,
    () => {
      const value = make();
      return { body: utf8(JSON.stringify(value)), expect: bodyAccepted(parts.op, value) ? "valid" : "invalid" };
    },
  ]);
  const padded = (size: number, expect: Expectation) => () => ({ body: utf8(text + " ".repeat(Math.max(0, size - utf8(text).length))), expect });
  variants.push(
    [`padded with spaces to ${max} bytes`, padded(max, "equivalent")],
    [`padded with spaces to ${max + 1} bytes`, padded(max + 1, "invalid")],
    [`of ${max * 4} bytes`, padded(max * 4, "invalid")],
  );
  if (parts.op.operationId === "patchDeployment") {
    const deep = (levels: number) =>
      `{"source_config":{"resource_spec":{"sidecars":[{"name":"s","image":"busybox","securityContext":${'{"a":'.repeat(levels)}{}${"}".repeat(levels)}}]}}}`;
    variants.push(
      ["nested 100,000 levels", () => ({ body: utf8(deep(100_000)), expect: "invalid" })],
      ["a number JSON cannot hold (1e309)", () => ({ body: utf8(`{"source_config":{"resource_spec":{"min_scale":1e309}}}`), expect: "invalid" })],
      ["a number that underflows (1e-400)", () => ({ body: utf8(`{"source_config":{"resource_spec":{"min_scale":1e-400}}}`), expect: "any" })],
    );
  }
  return fc.constantFrom(...variants).map(([mutation, make]) => {
    const { body, expect } = make();
    return { ...original, body, mutation: `body ${mutation}`, expect, ...(expect === "equivalent" ? { original } : {}) };
  });
};

/** The same request in another shape of HTTP: HEAD for a GET, a chunked or 100-continue upload, a percent-escaped or `+`-spaced query. */
const transport: Mutation = (parts) => {
  const original = toCase(parts);
  const variants: [string, () => Case, Expectation][] = [];
  if (original.method === "GET") variants.push(["HEAD instead of GET", () => ({ ...original, method: "HEAD" }), "equivalent"]);
  if (original.body) {
    variants.push(
      ["a chunked upload", () => ({ ...original, headers: [...original.headers, ["transfer-encoding", "chunked"]] }), "equivalent"],
      ["Expect: 100-continue", () => ({ ...original, headers: [...original.headers, ["expect", "100-continue"]] }), "equivalent"],
    );
  }
  if (parts.query.length > 0) {
    const [name] = parts.query[0]!;
    const escaped = name.replace(/[a-z]/, (c) => `%${c.charCodeAt(0).toString(16)}`);
    variants.push(
      [`query name ${escaped}`, () => ({ ...original, target: original.target.replace(`?${encode(name)}=`, `?${escaped}=`) }), "equivalent"],
      ["query with + for spaces", () => ({ ...original, target: original.target.replace(/%20/g, "+") }), "equivalent"],
    );
  }
  if (variants.length === 0) return undefined;
  return fc.constantFrom(...variants).map(([mutation, make, expect]) => ({ ...make(), mutation: `transport ${mutation}`, expect, original }));
};

export const MUTATIONS: Record<string, Mutation> = { queryValue, queryShape, pathValue, headerShape, mediaType, bodyShape, bodyBytes, bodyBounds, transport };

/** Any case for one operation: the valid request (a quarter of the time) or one mutation of it. */
export function caseFor(op: OperationEntry, mutations: readonly string[] = Object.keys(MUTATIONS)): fc.Arbitrary<Case> {
  return validParts(op).chain((parts) => {
    const applicable = mutations.map((m) => MUTATIONS[m]!(parts)).filter((a): a is fc.Arbitrary<Case> => a !== undefined);
    return fc.oneof({ weight: 1, arbitrary: fc.constant(toCase(parts)) }, ...applicable.map((arbitrary) => ({ weight: 1, arbitrary })));
  });
}

/** A case for any of the document's operations. */
export function anyCase(mutations?: readonly string[]): fc.Arbitrary<Case> {
  // Operations with a body have the most to mutate: they are drawn as often as all the others together.
  const withBody = OPERATIONS.filter((op) => op.operation.requestBody);
  const rest = OPERATIONS.filter((op) => !op.operation.requestBody);
  return fc.oneof(fc.constantFrom(...withBody), fc.constantFrom(...rest)).chain((op) => caseFor(op, mutations));
}

/** The case as a short text for a failure message (bodies cut to 300 characters). */
export function describeCase(c: Case): string {
  const body = c.body ? Buffer.from(c.body) : undefined;
  const shown = body ? (body.length > 300 ? `${body.subarray(0, 300).toString("latin1")}... (${body.length} bytes)` : body.toString("latin1")) : "";
  return `${c.operationId} [${c.mutation}] expect ${c.expect}\n  ${c.method} ${c.target}\n  ${c.headers.map(([n, v]) => `${n}: ${v}`).join("\n  ")}${shown ? `\n  ${shown}` : ""}`;
}
