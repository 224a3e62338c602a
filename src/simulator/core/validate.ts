// Request validation against the document. Each operation's parameters and body are described
// once from the document (src/shared/walk.ts); their validators were compiled when the package was
// built (generated/validators.js), so a simulator is ready at once. Query values are coerced the way Prism does (numbers by Number(), so
// `limit=1e1` is 10; booleans from "true"/"false"; `style: form, explode: false` arrays split on
// commas) and the results name each violated field: `parameter` for parameters, `pointer` (a JSON
// Pointer) for body fields, each with the `code` of the rule it broke.
import { ajvFieldErrors, BODY_REQUIRED_DETAIL } from "../../shared/field-details.js";
import { checkParameterText, type ParameterShape, queryText, textType } from "../../gate/parameter-values.js";
import { fieldErrorCode, type FieldErrorCode } from "../../shared/problems.js";
import { deref, listOperations, type OpenApiDocument } from "../../shared/walk.js";
import { compiledValidator } from "../../../generated/validators.js";

export interface FieldError {
  detail: string;
  code: FieldErrorCode;
  pointer?: string;
  parameter?: string;
}

interface ParameterSpec extends ParameterShape {
  /** The schema's default, used when the parameter is absent (limit 20, offset 0). */
  defaultValue: unknown;
  /** `format: uuid` (or, for arrays, its items): compared case-insensitively, so read in canonical lower case. */
  uuid: boolean;
}

/** What the router checks of a request to one operation: its parameters and its body. */
export interface CheckedOperation {
  operationId: string;
  method: string;
  path: string;
  parameters: ParameterSpec[];
  body?: { required: boolean; mediaTypes: string[] };
}

/** Describes every operation of the document (no validator is compiled yet). */
export function describeOperations(document: OpenApiDocument): CheckedOperation[] {
  return listOperations(document).map(({ path, method, operationId, operation, parameters }) => {
    let body: CheckedOperation["body"];
    if (operation.requestBody) {
      const rb = deref<{ required?: boolean; content?: Record<string, unknown> }>(document, operation.requestBody);
      const mediaTypes = Object.keys(rb.content ?? {});
      body = { required: rb.required === true, mediaTypes };
    }
    return {
      operationId,
      method: method.toUpperCase(),
      path,
      parameters: parameters.map((p) => describeParameter(document, p)),
      ...(body ? { body } : {}),
    };
  });
}

/** What the simulator reads of a parameter and of its schema in the document. */
interface ParameterObject {
  name: string;
  in: "path" | "query" | "header";
  required?: boolean;
  schema?: unknown;
}
interface SchemaObject {
  type?: string | string[];
  enum?: unknown[];
  items?: unknown;
  default?: unknown;
  format?: string;
}

function describeParameter(document: OpenApiDocument, p: ParameterObject): ParameterSpec {
  const resolved = deref<SchemaObject>(document, p.schema ?? {});
  const array = textType(resolved) === "array";
  return {
    name: p.name,
    in: p.in,
    required: p.required === true,
    array,
    coerceTo: textType(array ? deref<SchemaObject>(document, resolved.items ?? {}) : resolved),
    defaultValue: resolved.default,
    uuid: (array ? deref<SchemaObject>(document, resolved.items ?? {}) : resolved)?.format === "uuid",
  };
}

export interface ParameterValues {
  values: Record<string, unknown>;
  errors: FieldError[];
}

/**
 * Checks requests against the document's operations with the validators compiled at build time
 * (generated/validators.js, keyed `parameter:<operationId>:<in>:<name>` and `body:<operationId>`):
 * nothing is compiled at start and no function is made from text, so the core runs under a
 * Content-Security-Policy without 'unsafe-eval'.
 */
export class RequestChecker {
  parameters(
    spec: CheckedOperation,
    pathValues: Record<string, string>,
    query: URLSearchParams | undefined,
    header: (name: string) => string | null,
  ): ParameterValues {
    const values: Record<string, unknown> = {};
    const errors: FieldError[] = [];
    for (const p of spec.parameters) {
      let raw: string | undefined;
      if (p.in === "path") raw = pathValues[p.name];
      else if (p.in === "header") raw = header(p.name.toLowerCase()) ?? undefined;
      else if (query) raw = queryText(query, p);
      const { value, errors: invalid } = checkParameterText(spec.operationId, p, raw);
      if (invalid.length > 0) {
        errors.push(...invalid);
        continue;
      }
      if (raw === undefined) {
        if (p.defaultValue !== undefined) values[p.name] = p.defaultValue;
        continue;
      }
      // A UUID names the same thing in any case (RFC 9562): the canonical form is lower case.
      values[p.name] = p.uuid ? lowerCaseUuids(value) : value;
    }
    return { values, errors };
  }

  body(spec: CheckedOperation, body: unknown): FieldError[] {
    if (!spec.body) return [];
    if (body === undefined) return spec.body.required ? [{ pointer: "", code: "required", detail: BODY_REQUIRED_DETAIL }] : [];
    const validate = compiledValidator(`body:${spec.operationId}`);
    if (validate(body)) return [];
    return ajvFieldErrors(validate.errors).map((e) => ({ pointer: e.pointer, code: fieldErrorCode(e.keyword), detail: e.detail }));
  }
}

function lowerCaseUuids(value: unknown): unknown {
  if (typeof value === "string") return value.toLowerCase();
  return Array.isArray(value) ? value.map(lowerCaseUuids) : value;
}
