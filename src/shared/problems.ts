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

/**
 * The words of the service's 403 for an organisation-scoped API key sent without a workspace
 * (X-Tenant-Id): the service's own command line looks for them, and so do the client, `dms` and the
 * MCP server, each to say how to name the workspace in its own terms.
 */
export const WORKSPACE_REQUIRED_WORDS = "requires workspace specification";

/** The simulator's 403 detail for an organisation key without X-Tenant-Id, in the service's words. */
export const WORKSPACE_REQUIRED_DETAIL = `This API key is scoped to the organisation and ${WORKSPACE_REQUIRED_WORDS}: send the workspace's id in the X-Tenant-Id header.`;

/** True for the service's answer to an organisation key without a workspace. */
export function isWorkspaceRequired(status: number, detail: string | undefined): boolean {
  return status === 403 && typeof detail === "string" && detail.includes(WORKSPACE_REQUIRED_WORDS);
}

/** How each surface names the workspace: the advice for an organisation key sent without one. */
export function workspaceAdvice(setting: string): string {
  return `the API key is scoped to the organisation, so each request must name a workspace: set ${setting} to the workspace's id (sent as X-Tenant-Id)`;
}

/** Which body error answers carry: this package's problem+json, or the service's own FastAPI shapes. */
export type ErrorShape = "problem" | "service";
export const ERROR_SHAPES: readonly ErrorShape[] = ["problem", "service"];

/** One field error as FastAPI writes it: where (`["body", "source_config", "cpu"]`, `["query", "limit"]`), the message and a type. */
export interface ServiceFieldError {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/** The service's error bodies: `{"detail": "text"}`, and for a 422 naming fields `{"detail": [{loc, msg, type}]}`. */
export type ServiceErrorBody = { detail: string } | { detail: ServiceFieldError[] };

/**
 * A problem's body in the service's shape, keeping what a client reads from it: the status is the
 * response's, the detail is the problem's, and a 422's field errors become FastAPI's list (a
 * pointer's segments after "body", a parameter after where it is sent; `type` carries this
 * package's field error code, so the client reads the same code from either shape). Other fields
 * (type, title, instance) have no place in it.
 */
export function serviceErrorBody(
  problem: { status?: number; detail?: string; errors?: ProblemFieldError[] },
  where: (parameter: string) => string | undefined,
): ServiceErrorBody {
  const errors = problem.errors ?? [];
  if (problem.status === 422 && errors.length > 0) {
    return {
      detail: errors.map((e) => ({
        loc: e.parameter !== undefined ? [where(e.parameter) ?? "query", e.parameter] : ["body", ...pointerSegments(e.pointer ?? "")],
        msg: e.detail,
        type: e.code ?? "invalid",
      })),
    };
  }
  return { detail: problem.detail ?? "" };
}

/** "/secrets/0/name" -> ["secrets", 0, "name"]: FastAPI numbers array indexes. */
function pointerSegments(pointer: string): (string | number)[] {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
    .map((s) => (/^(0|[1-9]\d*)$/.test(s) ? Number(s) : s));
}
