// Problem details as this package's own servers (the simulator, the mock's front) send them: one
// place that turns a kind of error into its RFC 9457 `type`, `title` and `status`, and a JSON Schema
// keyword into the field error `code`, so both servers answer the same mistake the same way.
// The kinds and codes come from the document (x-problem-types, x-field-error-codes). No Node imports.
import { FIELD_ERROR_CODES, PROBLEM_TYPES, type FieldErrorCode, type ProblemKind } from "../../generated/constants.js";
import type { Problem, ProblemFieldError } from "./types.js";

export { PROBLEM_TYPES, FIELD_ERROR_CODES, type FieldErrorCode, type ProblemKind };

/** The problem details of one kind of error: its `type`, `title` and `status`, with this request's `detail`. */
export function problemDetails(kind: ProblemKind, detail: string, instance?: string, errors?: ProblemFieldError[]): Problem & { status: number } {
  const { type, title, status } = PROBLEM_TYPES[kind];
  return {
    type,
    title,
    status,
    detail,
    ...(instance !== undefined ? { instance } : {}),
    ...(errors !== undefined ? { errors } : {}),
  };
}

// JSON Schema keywords whose snake_case spelling is not simply the keyword lower-cased with `_`.
const KEYWORD_CODES: Record<string, FieldErrorCode> = {
  additionalProperties: "unknown_field",
  unevaluatedProperties: "unknown_field",
  // The document marks response-only fields with a `false` schema in the patch bodies.
  "false schema": "read_only",
};

const KNOWN_CODES = new Set<string>(FIELD_ERROR_CODES);

/** The field error `code` for a JSON Schema keyword (ajv's `keyword`, Prism's violation `code`). */
export function fieldErrorCode(keyword: string): FieldErrorCode {
  const mapped = KEYWORD_CODES[keyword];
  if (mapped) return mapped;
  const snake = keyword.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  return KNOWN_CODES.has(snake) ? (snake as FieldErrorCode) : "invalid";
}

/** The `detail` of a validation problem, the same sentence from every server of this package: "The request has 2 invalid fields." */
export function invalidFieldsDetail(count: number): string {
  return `The request has ${count} invalid field${count === 1 ? "" : "s"}.`;
}
