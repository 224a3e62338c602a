// What the core answers, before any transport turns it into bytes: a status, and either a value to
// serialize or JSON text that is already serialized (cached answers). Problems follow the document's
// problem types (src/shared/problems.ts), so every server of this package answers a mistake alike.
import { problemDetails, type ProblemKind, serviceErrorBody } from "../../shared/problems.js";
import type { ProblemFieldError } from "../../shared/types.js";
import type { FieldError } from "./validate.js";

export interface Reply {
  status: number;
  /** Serialized JSON, when the answer is cached: text (deployments) or UTF-8 bytes (list pages, sent as they are). */
  text?: string | Uint8Array;
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
  /** No answer at all: the transport drops the connection (an injected fault, src/simulator/core/faults.ts). */
  drop?: boolean;
}

export const PROBLEM_JSON = "application/problem+json";

export function ok(body: unknown): Reply {
  return { status: 200, body };
}

export function okText(text: string | Uint8Array): Reply {
  return { status: 200, text };
}

export function problem(kind: ProblemKind, detail: string, instance: string, errors?: FieldError[]): Reply {
  const body = problemDetails(kind, detail, instance, errors);
  return { status: body.status, contentType: PROBLEM_JSON, body };
}

/** The answer's body as text or UTF-8 bytes (empty for no body). */
export function replyBody(reply: Reply): string | Uint8Array {
  return reply.text ?? (reply.body === undefined ? "" : JSON.stringify(reply.body));
}

/**
 * A problem reply in the service's own shape (FastAPI's `{"detail": …}`, application/json), with
 * the same status and headers; any other reply as it is. `where` says where a parameter is sent
 * (query, path, header), for a field error's `loc`.
 */
export function inServiceShape(reply: Reply, where: (parameter: string) => string | undefined): Reply {
  if (reply.contentType !== PROBLEM_JSON || typeof reply.body !== "object" || reply.body === null) return reply;
  const body = serviceErrorBody(reply.body as { status?: number; detail?: string; errors?: ProblemFieldError[] }, where);
  return { ...reply, contentType: "application/json", body };
}
