// Derives the contract cases from the bundled OpenAPI document: one valid request per operation
// (and per documented request example), and for every constraint on a parameter or request-body
// field a request that breaks exactly that constraint. Nothing here names an operation or a field:
// a constraint added to the document is covered by the next run. Operations, parameters and JSON
// Pointers come from src/shared/walk.ts.
import { listOperations, toPointer, type OpenApiDocument, type OperationEntry } from "../../src/shared/walk.js";
import { createOpenApiValidator, describeErrors } from "../support/openapi-validator.js";
import { minimalValue, pickType, resolveRef, view, type Schema, type SchemaView } from "./schemas.js";

/** Every operation of the document, path-level and operation-level parameters merged and resolved. */
export function operationsOf(document: Schema): OperationEntry[] {
  return listOperations(document as OpenApiDocument);
}

export type CaseKind = "valid" | "unauthorized" | "parameter" | "body" | "malformed-json" | "wrong-content-type";

/** Which field a server's problem+json `errors` should name for a rejected case. */
export type ExpectedField = { pointer: string; property?: string } | { parameter: string };

export interface ContractCase {
  operationId: string;
  method: string;
  /** The path template, e.g. /v2/deployments/{deployment_id}. */
  path: string;
  kind: CaseKind;
  title: string;
  /** Path parameter values this case sets itself; the others come from the target's ids. */
  pathValues: Record<string, string>;
  query: Array<[string, string]>;
  /** Header parameters (not credentials), as name/value pairs. */
  headers: Array<[string, string]>;
  /** The operation's security: which credentials a request sends (see securityOf). */
  security: OperationSecurity;
  /** Whether this request carries the credentials the operation requires. */
  withCredentials: boolean;
  body?: { text: string; contentType: string };
  expect: { success: true } | { success: false; status?: number; field?: ExpectedField };
  /** Changes state on a real server (PATCH): run only when the target allows it. */
  writes: boolean;
}

export interface Derivation {
  cases: ContractCase[];
  /** Constraints for which no request could be built that ajv rejects (reported, not run). */
  notDerivable: string[];
}

/** Where a credential goes: an apiKey security scheme's header, query or cookie name. */
export interface Credential {
  scheme: string;
  in: "header" | "query" | "cookie";
  name: string;
}

/**
 * An operation's security, read from its `security` (or the document's): the schemes every
 * alternative needs (a request without them must get 401), the schemes only some alternatives
 * use (sent when the target has a value for them), and whether one alternative is anonymous ({}).
 */
export interface OperationSecurity {
  required: Credential[];
  optional: Credential[];
  anonymous: boolean;
}

const NOT_A_VALUE = "NOT_A_DOCUMENTED_VALUE";
const UNKNOWN_PROPERTY = "not_a_documented_property";
const STRING_FORMATS = new Set(["uuid", "date-time", "date", "time", "uri", "url", "email", "hostname", "ipv4", "ipv6"]);

export function securityOf(document: Schema, op: Schema): OperationSecurity {
  const requirements: Array<Record<string, unknown>> = op.security ?? document.security ?? [];
  const schemes = document.components?.securitySchemes ?? {};
  const credential = (scheme: string): Credential => {
    const s = resolveRef(document, schemes[scheme] ?? {});
    return { scheme, in: s.in ?? "header", name: s.name ?? scheme };
  };
  const names = requirements.map((r) => Object.keys(r));
  const anonymous = names.length === 0 || names.some((n) => n.length === 0);
  const everywhere = anonymous ? [] : (names[0] ?? []).filter((scheme) => names.every((n) => n.includes(scheme)));
  const somewhere = [...new Set(names.flat())].filter((scheme) => !everywhere.includes(scheme));
  return { required: everywhere.map(credential), optional: somewhere.map(credential), anonymous };
}

export function jsonRequestSchema(document: Schema, op: Schema): Schema | undefined {
  const body = op.requestBody ? resolveRef(document, op.requestBody) : undefined;
  return body?.content?.["application/json"]?.schema;
}

export function successSchema(document: Schema, op: Schema): { status: string; schema?: Schema } | undefined {
  const status = Object.keys(op.responses ?? {}).find((s) => /^2\d\d$/.test(s));
  if (!status) return undefined;
  const response = resolveRef(document, op.responses[status]);
  return { status, schema: response.content?.["application/json"]?.schema };
}

export function deriveCases(document: Schema): Derivation {
  const validator = createOpenApiValidator(document);
  const cases: ContractCase[] = [];
  const notDerivable: string[] = [];
  for (const info of operationsOf(document)) {
    const op = info.operation;
    const writes = info.method !== "get";
    const security = securityOf(document, op);
    // Required query and header parameters are in every request; a case that breaks one replaces it.
    const requiredQuery = info.parameters.filter((p) => p.in === "query" && p.required).flatMap((p) => serialize(p, validParameterValue(document, p)));
    const requiredHeaders = info.parameters
      .filter((p) => p.in === "header" && p.required)
      .map((p): [string, string] => [p.name, headerValue(validParameterValue(document, p))]);
    const base = {
      operationId: info.operationId,
      method: info.method,
      path: info.path,
      pathValues: {},
      query: requiredQuery,
      headers: requiredHeaders,
      security,
      withCredentials: true,
      writes,
    };
    const bodySchema = jsonRequestSchema(document, op);
    const validBodies = bodySchema ? requestExamples(document, op, bodySchema) : [undefined];

    for (const { name, value } of validBodies.map((v, i) => v ?? { name: `#${i}`, value: undefined })) {
      cases.push({
        ...base,
        kind: "valid",
        title: value === undefined ? "valid request" : `valid request (body example ${name})`,
        ...(value === undefined ? {} : { body: { text: JSON.stringify(value), contentType: "application/json" } }),
        expect: { success: true },
      });
    }
    const queryParams = info.parameters.filter((p) => p.in === "query");
    if (queryParams.length > 0) {
      cases.push({
        ...base,
        kind: "valid",
        title: "valid request with every query parameter set",
        query: queryParams.flatMap((p) => serialize(p, validParameterValue(document, p))),
        headers: info.parameters.filter((p) => p.in === "header").map((p): [string, string] => [p.name, headerValue(validParameterValue(document, p))]),
        ...(validBodies[0] ? { body: { text: JSON.stringify(validBodies[0].value), contentType: "application/json" } } : {}),
        expect: { success: true },
      });
    }
    const someBody = validBodies[0] ? { text: JSON.stringify(validBodies[0].value), contentType: "application/json" } : undefined;
    // An operation that some security alternative lets through without credentials gets no 401 case.
    if (!security.anonymous && security.required.length > 0) {
      cases.push({
        ...base,
        kind: "unauthorized",
        title: `no ${security.required.map((c) => c.name).join(", ")}: 401`,
        withCredentials: false,
        ...(someBody ? { body: someBody } : {}),
        expect: { success: false, status: 401 },
      });
    }
    for (const param of info.parameters) {
      const others = <T extends [string, string]>(pairs: T[]) => pairs.filter(([name]) => name.toLowerCase() !== param.name.toLowerCase());
      for (const c of parameterCases(document, param)) {
        cases.push({
          ...base,
          kind: "parameter",
          title: `${param.in} ${param.name}: ${c.constraint}`,
          ...(param.in === "path" && c.value !== undefined ? { pathValues: { [param.name]: c.value } } : {}),
          query: param.in === "query" ? [...others(base.query), ...(c.value !== undefined ? serialize(param, c.value, true) : [])] : base.query,
          headers:
            param.in === "header" ? [...others(base.headers), ...(c.value !== undefined ? [[param.name, c.value] as [string, string]] : [])] : base.headers,
          ...(someBody ? { body: someBody } : {}),
          expect: { success: false, field: { parameter: param.name } },
        });
      }
    }
    if (bodySchema) {
      const check = validator.validatorFor(bodySchema, `request body ${info.operationId}`);
      for (const c of bodyCases(document, bodySchema, op)) {
        const label = `${info.operationId} body ${c.pointer || "/"}: ${c.constraint}`;
        if (!check(c.base)) throw new Error(`derived a base body the document rejects for ${label}: ${describeErrors(check.errors)} ${JSON.stringify(c.base)}`);
        if (check(c.value)) {
          notDerivable.push(label);
          continue;
        }
        cases.push({
          ...base,
          kind: "body",
          title: `body ${c.pointer || "(root)"}: ${c.constraint}`,
          body: { text: JSON.stringify(c.value), contentType: "application/json" },
          expect: { success: false, field: { pointer: c.pointer, ...(c.property ? { property: c.property } : {}) } },
        });
      }
      cases.push({
        ...base,
        kind: "malformed-json",
        title: "malformed JSON body",
        body: { text: '{"not valid json', contentType: "application/json" },
        expect: { success: false, ...documentedStatus(op, 400) },
      });
      cases.push({
        ...base,
        kind: "wrong-content-type",
        title: "body sent as text/plain",
        body: { text: someBody?.text ?? "{}", contentType: "text/plain" },
        expect: { success: false, ...documentedStatus(op, 415) },
      });
    }
  }
  return { cases, notDerivable };
}

/** Expect exactly this status when the operation documents it, else any 4xx. */
function documentedStatus(op: Schema, status: number): { status?: number } {
  return op.responses?.[String(status)] ? { status } : {};
}

function requestExamples(document: Schema, op: Schema, schema: Schema): Array<{ name: string; value: unknown }> {
  const media = resolveRef(document, op.requestBody).content["application/json"];
  const named = Object.entries<Schema>(media.examples ?? {}).map(([name, ex]) => ({ name, value: resolveRef(document, ex).value }));
  if (media.example !== undefined) named.push({ name: "example", value: media.example });
  return named.length > 0 ? named : [{ name: "minimal", value: minimalValue(document, schema) }];
}

/** A value the parameter accepts; a list parameter gets one item, so the item constraints are exercised too. */
export function validParameterValue(document: Schema, param: Schema): unknown {
  const v = view(document, param.schema ?? {});
  if (pickType(v) === "array" && v.items && v.sample === undefined) return [minimalValue(document, v.items)];
  return minimalValue(document, param.schema ?? {});
}

/** A header parameter's value: simple style, lists comma-separated. */
function headerValue(value: unknown): string {
  return Array.isArray(value) ? value.map(String).join(",") : String(value);
}

/** Query values as name/value pairs: form style, exploded (repeated) unless explode is false. */
function serialize(param: Schema, value: unknown, raw = false): Array<[string, string]> {
  if (Array.isArray(value) && !raw) {
    const explode = param.explode ?? (param.style ?? "form") === "form";
    return explode ? value.map((v) => [param.name, String(v)]) : [[param.name, value.map(String).join(",")]];
  }
  return [[param.name, String(value)]];
}

interface ParameterCase {
  constraint: string;
  /** undefined: leave the parameter out. */
  value: string | undefined;
}

/** One value per constraint of a parameter, as the text a client would send. */
function parameterCases(document: Schema, param: Schema): ParameterCase[] {
  const out: ParameterCase[] = [];
  if (param.required && param.in !== "path") out.push({ constraint: "required", value: undefined });
  const v = view(document, param.schema ?? {});
  // Array parameters: break the items' constraints in a one-item list.
  const scalar = pickType(v) === "array" && v.items ? view(document, v.items) : v;
  for (const { constraint, value } of scalarViolations(scalar)) {
    // In a URL every value is text: a number or boolean sent for a text parameter is still text.
    if (constraint.startsWith("type") && typeof value !== "string") continue;
    if (typeof value === "object" && value !== null) continue;
    out.push({ constraint, value: String(value) });
  }
  return out;
}

interface Violation {
  constraint: string;
  value: unknown;
}

/** Values that break one constraint of a scalar schema each. */
function scalarViolations(v: SchemaView): Violation[] {
  const out: Violation[] = [];
  if (v.opaque) return out;
  const type = pickType(v);
  const wrong = wrongTypeValue(v.types);
  if (wrong !== undefined) out.push({ constraint: `type ${[...(v.types ?? [])].join("|")}`, value: wrong });
  if (v.enum && (type === "string" || type === "null")) out.push({ constraint: "enum", value: NOT_A_VALUE });
  if (v.format && STRING_FORMATS.has(v.format) && type === "string") out.push({ constraint: `format ${v.format}`, value: `not-a-${v.format}` });
  if (v.format === "int32" && v.maximum === undefined && v.exclusiveMaximum === undefined) out.push({ constraint: "format int32", value: 2 ** 31 });
  if (type === "integer" || type === "number") {
    if (v.minimum !== undefined) out.push({ constraint: "minimum", value: v.minimum - 1 });
    if (v.exclusiveMinimum !== undefined) out.push({ constraint: "exclusiveMinimum", value: v.exclusiveMinimum });
    if (v.maximum !== undefined) out.push({ constraint: "maximum", value: v.maximum + 1 });
    if (v.exclusiveMaximum !== undefined) out.push({ constraint: "exclusiveMaximum", value: v.exclusiveMaximum });
  }
  if (type === "string") {
    if ((v.minLength ?? 0) > 0) out.push({ constraint: "minLength", value: "x".repeat((v.minLength ?? 1) - 1) });
    if (v.maxLength !== undefined) out.push({ constraint: "maxLength", value: "x".repeat(v.maxLength + 1) });
    if (v.pattern !== undefined) out.push({ constraint: "pattern", value: " does not match " });
  }
  return out;
}

/** A JSON value of a type the schema does not allow, or undefined when it allows any. */
function wrongTypeValue(types: Set<string> | undefined): unknown {
  if (!types) return undefined;
  if (!types.has("string")) return "not-of-the-right-type";
  if (!types.has("number") && !types.has("integer")) return 12345;
  if (!types.has("boolean")) return true;
  if (!types.has("object")) return { not: "expected" };
  return undefined;
}

interface BodyCase {
  pointer: string;
  /** The property a required/unknown-property case is about (named in the error). */
  property?: string;
  constraint: string;
  base: unknown;
  value: unknown;
}

/** Walks the request body schema and breaks every constraint it finds, one per request. */
function bodyCases(document: Schema, root: Schema, op: Schema): BodyCase[] {
  const out: BodyCase[] = [];
  const walk = (segments: string[], chain: Schema[], refs: string[]): void => {
    const raw = chain[chain.length - 1] ?? {};
    const v = view(document, raw);
    const pointer = toPointer(segments);
    const at = (mutate: (holder: Record<string, any>, key: string) => void, constraint: string, property?: string) => {
      const base = materialize(document, chain, segments);
      const value = structuredClone(base.holder);
      mutate(value, "value");
      out.push({
        pointer: property === undefined ? pointer : `${pointer}/${property}`,
        ...(property === undefined ? {} : { property }),
        constraint,
        base: base.holder.value,
        value: value.value,
      });
    };
    for (const violation of scalarViolations(v)) {
      at((holder) => setAt(holder, ["value", ...segments], violation.value), violation.constraint);
    }
    if (pickType(v) === "array") {
      if ((v.minItems ?? 0) > 0) at((h) => setAt(h, ["value", ...segments], []), "minItems");
      if (v.maxItems !== undefined && v.items) {
        const item = minimalValue(document, v.items);
        at(
          (h) =>
            setAt(
              h,
              ["value", ...segments],
              Array.from({ length: (v.maxItems ?? 0) + 1 }, () => structuredClone(item)),
            ),
          "maxItems",
        );
      }
    }
    if (pickType(v) === "object" && !v.opaque) {
      for (const name of v.required) {
        at((h) => delete getAt(h, ["value", ...segments])[name], `required ${name}`, name);
      }
      if (v.closed) at((h) => (getAt(h, ["value", ...segments])[UNKNOWN_PROPERTY] = "x"), "unknown property (closed object)", UNKNOWN_PROPERTY);
      for (const [name, sub] of v.properties) {
        if (view(document, sub).readOnly) {
          at((h) => (getAt(h, ["value", ...segments])[name] = minimalValue(document, sub)), `readOnly ${name}`, name);
        }
      }
    }
    // Recurse, but not around a cycle of $refs and not forever.
    if (segments.length >= 8) return;
    const ref = typeof raw.$ref === "string" ? raw.$ref : undefined;
    const nextRefs = ref ? [...refs, ref] : refs;
    const children: Array<[string, Schema]> = [];
    if (pickType(v) === "object" && !v.opaque) for (const [name, sub] of v.properties) if (!view(document, sub).readOnly) children.push([name, sub]);
    if (pickType(v) === "array" && v.items) children.push(["0", v.items]);
    for (const [segment, sub] of children) {
      if (typeof sub.$ref === "string" && nextRefs.includes(sub.$ref)) continue;
      walk([...segments, segment], [...chain, sub], nextRefs);
    }
  };
  walk([], [root], []);
  out.push(...responseOnlyFieldCases(document, root, op));
  return out;
}

/**
 * Read-only fields of the resource the operation returns, sent in its (closed) request body:
 * a client that echoes a resource back must be told no.
 */
function responseOnlyFieldCases(document: Schema, root: Schema, op: Schema): BodyCase[] {
  const request = view(document, root);
  const response = successSchema(document, op)?.schema;
  if (!request.closed || !response || pickType(request) !== "object") return [];
  const out: BodyCase[] = [];
  for (const [name, sub] of view(document, response).properties) {
    if (request.properties.has(name) || !view(document, sub).readOnly) continue;
    const base = minimalValue(document, root);
    out.push({
      pointer: `/${name}`,
      property: name,
      constraint: `readOnly ${name} (response field)`,
      base,
      value: { ...(base as object), [name]: minimalValue(document, sub) },
    });
  }
  return out;
}

/**
 * The smallest valid body in which the field at `segments` exists: each object on the way holds
 * its required properties, each array one item. Returned inside a holder so the root can be replaced.
 */
function materialize(document: Schema, chain: Schema[], segments: string[]): { holder: Record<string, any> } {
  const holder: Record<string, any> = { value: minimalValue(document, chain[0] ?? {}) };
  let container: any = holder;
  let key = "value";
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] ?? "";
    let node = container[key];
    if (node === null || typeof node !== "object") {
      node = minimalValue(document, chain[i] ?? {});
      container[key] = node;
    }
    if (Array.isArray(node) && node.length === 0) node.push(minimalValue(document, chain[i + 1] ?? {}));
    container = node;
    key = segment;
  }
  if (container[key] === undefined || container[key] === null) container[key] = minimalValue(document, chain[segments.length] ?? {});
  return { holder };
}

function getAt(root: any, path: string[]): any {
  return path.reduce((node, key) => node[key], root);
}

function setAt(root: any, path: string[], value: unknown): void {
  const parent = getAt(root, path.slice(0, -1));
  parent[path[path.length - 1] ?? ""] = value;
}
