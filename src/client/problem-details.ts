// Reads any server's error body as problem details: RFC 9457 problem+json (this package's servers),
// the real service's FastAPI bodies (`{"detail": "text"}` and `{"detail": [{loc, msg, type}]}`),
// plain text and HTML pages from proxies. The fields come back always filled, so an error message
// and a program branching on `kind` never meet an empty hole.
import { PROBLEM_TYPES, type ProblemKind } from "../../generated/constants.js";
import { checkNesting, NestedTooDeepError } from "../shared/mask.js";
import { toPointer } from "../shared/walk.js";
import { invalidFieldsDetail } from "../shared/problems.js";
import type { Problem, ProblemFieldError } from "../shared/types.js";

export interface ProblemDetails {
  /** The body when it reads as problem details (a JSON object whose `detail`, if any, is text). */
  problem: Problem | undefined;
  type: string | undefined;
  kind: ProblemKind | undefined;
  title: string;
  detail: string;
  instance: string | undefined;
  errors: ProblemFieldError[];
}

/** The longest `detail` taken from a text or HTML body: enough for a sentence, never a whole page. */
const MAX_DETAIL_LENGTH = 300;

// RFC 9110 reason phrases, for responses that carry none (HTTP/2 has no reason phrase).
const REASON_PHRASES: Readonly<Record<number, string>> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  406: "Not Acceptable",
  408: "Request Timeout",
  409: "Conflict",
  410: "Gone",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  501: "Not Implemented",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
  507: "Insufficient Storage",
};

/** The reason phrase the server sent, else the standard one, else `HTTP <status>`. */
function reasonPhrase(status: number, statusText = ""): string {
  return statusText.trim() || REASON_PHRASES[status] || `HTTP ${status}`;
}

const KINDS = Object.entries(PROBLEM_TYPES) as [ProblemKind, (typeof PROBLEM_TYPES)[ProblemKind]][];

/**
 * The kind whose `type` URI the body names; else the kind the status belongs to when only one kind
 * has that status; for a 400 that is neither, the general `bad-request`.
 */
function problemKind(type: string | undefined, status: number): ProblemKind | undefined {
  const byType = KINDS.find(([, entry]) => entry.type === type);
  if (byType) return byType[0];
  const byStatus = KINDS.filter(([, entry]) => entry.status === status).map(([kind]) => kind);
  if (byStatus.length === 1) return byStatus[0];
  return byStatus.includes("bad-request") ? "bad-request" : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

/** A string field of the body as text for a message (see shorten), or undefined when it is not text. */
function shortOrUndefined(value: unknown): string | undefined {
  const said = text(value);
  return said === undefined ? undefined : shorten(said);
}

export function shorten(value: string): string {
  const collapsed = value.replace(/\s+/g, " ").trim();
  return collapsed.length <= MAX_DETAIL_LENGTH ? collapsed : `${collapsed.slice(0, MAX_DETAIL_LENGTH - 1)}…`;
}

/**
 * A value the server sent, as JSON text for a message, cut after `max` characters. A value nested
 * more than MAX_WALK_DEPTH levels (a few kilobytes of `[`) would overflow the stack of JSON.stringify:
 * it reads as the NestedTooDeepError's words instead, whole, as on every surface that shows data.
 */
export function jsonExcerpt(value: unknown, max = MAX_DETAIL_LENGTH): string | undefined {
  try {
    checkNesting(value);
  } catch (error) {
    if (error instanceof NestedTooDeepError) return `(${error.message})`;
    throw error;
  }
  const json = JSON.stringify(value);
  return json === undefined || json.length <= max ? json : `${json.slice(0, max - 1)}…`;
}

const ENTITIES: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

/** The readable text of an HTML page: no head, scripts, styles or tags, the common entities decoded. */
function htmlToText(html: string): string {
  return html
    .replace(/<(head|script|style)\b[\s\S]*?<\/\1\s*>/gi, " ")
    .replace(/<!--[\s\S]*?-->/g, " ")
    .replace(/<[^>]*>/g, " ")
    .replace(/&(#\d+|#x[\da-f]+|[a-z]+);/gi, (entity, name: string) => {
      if (name[0] !== "#") return ENTITIES[name.toLowerCase()] ?? entity;
      const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    });
}

function looksLikeHtml(body: string, contentType: string): boolean {
  return /html/i.test(contentType) || /^\s*</.test(body);
}

// FastAPI names where a field error is: ["body", "source_config", "cpu"] is a body field, and
// ["query", "limit"] (or "path", "header", "cookie") a parameter.
const PARAMETER_LOCATIONS = new Set(["query", "path", "header", "cookie"]);

function fastApiFieldError(entry: unknown): ProblemFieldError {
  const item = isObject(entry) ? entry : {};
  const loc = Array.isArray(item.loc) ? item.loc.filter((s): s is string | number => typeof s === "string" || typeof s === "number") : [];
  const detail = text(item.msg) ?? "is not valid";
  const code = text(item.type);
  const where: { pointer: string } | { parameter: string } =
    typeof loc[0] === "string" && PARAMETER_LOCATIONS.has(loc[0]) && loc.length > 1
      ? { parameter: String(loc[1]) }
      : { pointer: toPointer(loc[0] === "body" ? loc.slice(1) : loc) };
  return code === undefined ? { ...where, detail } : { ...where, detail, code };
}

/**
 * The `errors` of a problem, each with the fields the document gives a field error as strings:
 * `detail` always (a placeholder when it is missing or not text), and `pointer`, `parameter` and
 * `code` only when the server sent them as strings, so that a number or an object there never
 * reaches a message as `5` or `[object Object]`. Other members are kept as they were sent.
 */
function problemFieldErrors(errors: unknown): ProblemFieldError[] {
  if (!Array.isArray(errors)) return [];
  return errors.filter(isObject).map(({ pointer, parameter, code, ...rest }) => {
    const error: ProblemFieldError = { ...rest, detail: text(rest.detail) ?? "is not valid" };
    if (typeof pointer === "string") error.pointer = pointer;
    if (text(parameter) !== undefined) error.parameter = parameter as string;
    if (text(code) !== undefined) error.code = code as string;
    return error;
  });
}

/** Problem details from an error response's status and body (parsed JSON, or the text when it was not JSON). */
export function readProblem(status: number, body: unknown, response?: { statusText?: string; contentType?: string }): ProblemDetails {
  const reason = reasonPhrase(status, response?.statusText);
  if (isObject(body)) {
    const type = text(body.type);
    const kind = problemKind(type, status);
    const instance = text(body.instance);
    if (Array.isArray(body.detail)) {
      // FastAPI's validation error: the list of fields is the whole message.
      const errors = body.detail.map(fastApiFieldError);
      const detail = invalidFieldsDetail(errors.length);
      return { problem: undefined, type, kind, title: shortOrUndefined(body.title) ?? reason, detail, instance, errors };
    }
    // `detail` is RFC 9457 and FastAPI; `message` and `error` are what gateways tend to send.
    const said = text(body.detail) ?? text(body.message) ?? text(body.error);
    return {
      problem: body as Problem,
      type,
      kind,
      title: shortOrUndefined(body.title) ?? reason,
      detail: said !== undefined ? shorten(said) : `The response body gave no details (${reason}).`,
      instance,
      errors: problemFieldErrors(body.errors),
    };
  }
  const kind = problemKind(undefined, status);
  let detail: string;
  if (typeof body === "string" && body.trim() !== "") {
    const readable = shorten(looksLikeHtml(body, response?.contentType ?? "") ? htmlToText(body) : body);
    detail = readable || `The response body had no readable text (${reason}).`;
  } else if (body === undefined || body === null || body === "") {
    detail = `The response body was empty (${reason}).`;
  } else {
    detail = shorten(jsonExcerpt(body) ?? String(body));
  }
  return { problem: undefined, type: undefined, kind, title: reason, detail, instance: undefined, errors: [] };
}
