// Errors of a call as lines for people and as a JSON value: the problem details of an API error
// (status, title, detail, each field error), or the reason a server could not be reached.
import { PatchOutcomeUnknownError } from "../client/deploy-revision.js";
import { ApiError } from "../client/errors.js";
import { isWorkspaceRequired, workspaceAdvice } from "../shared/problems.js";
import { RedirectError } from "../client/redirects.js";
import { isUnreadPatchSuccess, ResponseTooLargeError } from "../client/response-size.js";
import { RequestTimeoutError } from "../client/timeout.js";
import { patchMayHaveBeenApplied } from "../shared/unknown-outcome.js";

/** How dms says to check a change whose outcome is unknown. */
const CHECK_WITH = "dms revisions";

export interface DescribedError {
  /** One line for the log and for the GitHub annotation. */
  summary: string;
  /** The field errors, one line each. */
  details: string[];
  /** For the --json result object. */
  json: Record<string, unknown>;
}

/** The error that fetch rejects with when the connection fails: "fetch failed" with the system error as cause. */
function networkReason(error: Error): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? error.message;
}

export function describeError(error: unknown, baseUrl: string): DescribedError {
  if (error instanceof ApiError) {
    const head = [error.title, error.detail].filter(Boolean).join(": ");
    const fields = error.errors.map((field) => ({
      where: field.parameter ?? (field.pointer ? field.pointer : "(body)"),
      detail: `${field.detail ?? ""}${field.code ? ` [${field.code}]` : ""}`,
    }));
    // An organisation key without a workspace: say how dms names one.
    const advice = isWorkspaceRequired(error.status, error.detail) ? [`  ${workspaceAdvice("--tenant-id (or DMS_TENANT_ID)")}`] : [];
    return {
      summary: `${error.method} ${error.path} answered ${error.status}${head ? ` ${head}` : ""}`,
      details: [...fields.map((f) => `  ${f.where}: ${f.detail}`), ...advice],
      json: {
        kind: "api_error",
        status: error.status,
        method: error.method,
        path: error.path,
        ...(error.type !== undefined ? { type: error.type } : {}),
        ...(error.title !== undefined ? { title: error.title } : {}),
        ...(error.detail !== undefined ? { detail: error.detail } : {}),
        errors: error.errors,
        ...(advice.length > 0 ? { hint: advice[0]!.trim() } : {}),
      },
    };
  }
  if (error instanceof RequestTimeoutError) {
    // A PATCH is never retried, and one that timed out may still have been applied.
    const hint = error.method === "PATCH" ? `; ${patchMayHaveBeenApplied(CHECK_WITH)}` : "";
    return {
      summary: `${error.message}${hint}`,
      details: [],
      json: { kind: "request_timeout", method: error.method, path: error.path, timeout_ms: error.timeoutMs },
    };
  }
  if (error instanceof PatchOutcomeUnknownError) {
    const reason = networkReason(error.cause);
    return {
      summary: `${error.message}; ${patchMayHaveBeenApplied(CHECK_WITH)}`,
      details: [],
      json: { kind: "network_error", method: "PATCH", message: reason, outcome_unknown: true },
    };
  }
  if (error instanceof ResponseTooLargeError) {
    // A PATCH answered with success was applied, though its answer was not read: never "try again".
    const unread = isUnreadPatchSuccess(error);
    return {
      summary: unread ? `${error.message}; ${patchMayHaveBeenApplied(CHECK_WITH)}` : error.message,
      details: [],
      json: {
        kind: "response_too_large",
        method: error.method,
        path: error.path,
        status: error.status,
        max_response_bytes: error.maxResponseBytes,
        ...(unread ? { outcome_unknown: true } : {}),
      },
    };
  }
  if (error instanceof RedirectError) {
    return {
      summary: error.message,
      details: [],
      json: { kind: "redirect_refused", method: error.method, status: error.status, ...(error.location ? { location: error.location } : {}) },
    };
  }
  // fetch's own failures (refused, reset, DNS, a bad port) are TypeErrors whose cause says why; a
  // TypeError without one is no network failure (a value the client refused) and says what it is.
  if (error instanceof TypeError && error.cause !== undefined) {
    const reason = networkReason(error);
    return { summary: `could not reach ${baseUrl}: ${reason}`, details: [], json: { kind: "network_error", message: reason } };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { summary: message, details: [], json: { kind: "error", message } };
}
