// Request validation against the document: every operation's parameters and body are compiled
// with ajv once, at start. Query values are coerced the way Prism does (numbers by Number(), so
// `limit=1e1` is 10; booleans from "true"/"false"; `style: form, explode: false` arrays split on
// commas) and the results name each violated field: `parameter` for parameters, `pointer` (a JSON
// Pointer) for body fields.
import type { ErrorObject, ValidateFunction } from "ajv/dist/2020.js";
import { deref, type OpenApiDocument } from "./document.js";
import type { OpenApiValidator } from "./openapi-validator.js";

export interface FieldError {
  detail: string;
  pointer?: string;
  parameter?: string;
}

type Scalar = "string" | "integer" | "number" | "boolean" | "object" | undefined;

interface ParameterSpec {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  array: boolean;
  /** The JSON type to coerce the raw text (or, for arrays, each item) to. */
  coerceTo: Scalar;
  /** The schema's default, used when the parameter is absent (limit 20, offset 0). */
  defaultValue: unknown;
  validate: ValidateFunction;
}

export interface OperationSpec {
  operationId: string;
  method: string;
  path: string;
  parameters: ParameterSpec[];
  body?: { required: boolean; mediaTypes: string[]; validate: ValidateFunction };
}

const METHODS = ["get", "put", "post", "patch", "delete"];

export function compileOperations(document: OpenApiDocument, validator: OpenApiValidator): OperationSpec[] {
  const out: OperationSpec[] = [];
  for (const [path, pathItem] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const op = pathItem[method] as any;
      if (!op) continue;
      const raw = [...((pathItem.parameters as unknown[]) ?? []), ...((op.parameters as unknown[]) ?? [])];
      const parameters = raw.map((p) => compileParameter(document, validator, op.operationId, deref(document, p)));
      let body: OperationSpec["body"];
      if (op.requestBody) {
        const rb = deref<any>(document, op.requestBody);
        const mediaTypes = Object.keys(rb.content ?? {});
        const schema = rb.content?.[mediaTypes[0] ?? ""]?.schema ?? {};
        body = { required: rb.required === true, mediaTypes, validate: validator.validatorFor(schema, `body:${op.operationId}`) };
      }
      out.push({ operationId: op.operationId, method: method.toUpperCase(), path, parameters, ...(body ? { body } : {}) });
    }
  }
  return out;
}

function compileParameter(document: OpenApiDocument, validator: OpenApiValidator, operationId: string, p: any): ParameterSpec {
  const schema = p.schema ?? {};
  const resolved = deref<any>(document, schema);
  const array = typeOf(resolved) === "array";
  const coerceTo = array ? typeOf(deref(document, resolved.items ?? {})) : typeOf(resolved);
  return {
    name: p.name,
    in: p.in,
    required: p.required === true,
    array,
    coerceTo,
    defaultValue: resolved.default,
    validate: validator.validatorFor(schema, `parameter:${operationId}:${p.in}:${p.name}`),
  };
}

function typeOf(schema: any): any {
  const t = schema?.type;
  if (Array.isArray(t)) return t.find((x) => x !== "null");
  if (t === undefined && Array.isArray(schema?.enum)) return "string";
  return t;
}

function coerce(raw: string, to: Scalar): unknown {
  if ((to === "integer" || to === "number") && raw.trim() !== "") {
    const n = Number(raw);
    return Number.isNaN(n) ? raw : n;
  }
  if (to === "boolean") return raw === "true" ? true : raw === "false" ? false : raw;
  return raw;
}

export interface ParameterValues {
  values: Record<string, unknown>;
  errors: FieldError[];
}

export function checkParameters(
  spec: OperationSpec,
  pathValues: Record<string, string>,
  query: URLSearchParams | undefined,
  headers: Record<string, string | string[] | undefined>,
): ParameterValues {
  const values: Record<string, unknown> = {};
  const errors: FieldError[] = [];
  for (const p of spec.parameters) {
    let raw: string | undefined;
    if (p.in === "path") raw = pathValues[p.name];
    else if (p.in === "header") {
      const h = headers[p.name.toLowerCase()];
      raw = Array.isArray(h) ? h.join(",") : h;
    } else if (query) {
      const all = query.getAll(p.name);
      // A repeated array parameter (status=A&status=B) is read like one comma-separated value.
      raw = all.length === 0 ? undefined : p.array ? all.join(",") : all[0];
    }
    if (raw === undefined) {
      if (p.defaultValue !== undefined) values[p.name] = p.defaultValue;
      if (p.required) errors.push({ parameter: p.name, detail: "is required" });
      continue;
    }
    const value = p.array ? raw.split(",").map((item) => coerce(item, p.coerceTo)) : coerce(raw, p.coerceTo);
    if (!p.validate(value)) {
      for (const e of tidy(p.validate.errors)) {
        errors.push({ parameter: p.name, detail: `${e.instancePath ? `item ${e.instancePath.slice(1)} ` : ""}${message(e)}` });
      }
      continue;
    }
    values[p.name] = value;
  }
  return { values, errors };
}

export function checkBody(spec: OperationSpec, body: unknown): FieldError[] {
  if (!spec.body) return [];
  if (body === undefined) return spec.body.required ? [{ pointer: "", detail: "the request body is required" }] : [];
  if (spec.body.validate(body)) return [];
  const seen = new Set<string>();
  const out: FieldError[] = [];
  for (const e of tidy(spec.body.validate.errors)) {
    const error = { pointer: pointerOf(e), detail: message(e) };
    const key = `${error.pointer}\u0000${error.detail}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(error);
  }
  return out;
}

/** Points at the offending field itself, also for unknown and missing properties. */
function pointerOf(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  const child = p.additionalProperty ?? p.unevaluatedProperty ?? p.missingProperty;
  return typeof child === "string" ? `${e.instancePath}/${child.replace(/~/g, "~0").replace(/\//g, "~1")}` : e.instancePath;
}

function message(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case "additionalProperties":
    case "unevaluatedProperties":
      return "is not a field that can be sent here (unknown, read-only or unchangeable)";
    case "false schema":
      return "is read-only and cannot be sent";
    case "required":
      return "is required";
    case "enum":
      return `must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    default:
      return e.message ?? e.keyword;
  }
}

/**
 * Drops the echoes of one violation: a nullable object (`anyOf: [{$ref}, {type: null}]`) that is
 * wrong reports "must be null" and "must match a schema in anyOf" next to the real reason.
 */
function tidy(errors: ErrorObject[] | null | undefined): ErrorObject[] {
  const list = errors ?? [];
  const specific = new Set(list.filter((e) => !isEcho(e)).map((e) => e.instancePath));
  // A number that is not an integer also fails `format: int32`; the type error says it all.
  const wrongType = new Set(list.filter((e) => e.keyword === "type" && !isEcho(e)).map((e) => e.instancePath));
  return list.filter(
    (e) => (!isEcho(e) || !hasSpecificAtOrBelow(specific, e.instancePath)) && !(e.keyword === "format" && wrongType.has(e.instancePath)),
  );
}

function isEcho(e: ErrorObject): boolean {
  if (e.keyword === "anyOf" || e.keyword === "oneOf") return true;
  return e.keyword === "type" && (e.params as { type?: unknown }).type === "null";
}

function hasSpecificAtOrBelow(paths: Set<string>, path: string): boolean {
  for (const p of paths) if (p === path || p.startsWith(`${path}/`)) return true;
  return false;
}
