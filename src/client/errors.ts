// ApiError: a response of the service that is an error (or a success whose body is not the JSON
// the document promises) as an exception, and unwrap(), which turns an openapi-fetch result into
// its data or throws an ApiError.
import type { ProblemKind } from "../../generated/constants.js";
import { readProblem, shorten } from "./problem-details.js";
import { isWorkspaceRequired, workspaceAdvice } from "../shared/problems.js";
import { terminalSafe } from "../shared/terminal-text.js";
import type { Problem, ProblemFieldError } from "../shared/types.js";

export interface RequestLine {
  method: string;
  url: string;
}

/** The request behind a response, recorded by the client's middleware: a Response knows neither its method nor, when a middleware built it, its URL. */
const requestOfResponse = new WeakMap<Response, RequestLine>();

export function rememberRequest(response: Response, request: RequestLine): void {
  requestOfResponse.set(response, { method: request.method, url: request.url });
}

/** The URL path of a request, for messages: the query string and the host are left out. */
export function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

export interface ApiErrorOptions {
  /** The request, when the response was not sent through the client (which records it). */
  request?: RequestLine;
  /** Instead of the title and detail read from the body: for a success response whose body is unusable. */
  title?: string;
  detail?: string;
  cause?: unknown;
}

function where(error: ProblemFieldError): string {
  if (error.parameter !== undefined) return error.parameter;
  return error.pointer === undefined || error.pointer === "" ? "(body)" : error.pointer;
}

/** The field errors a message lists; the rest are counted (all of them stay in `errors`). */
const MESSAGE_FIELD_ERRORS = 20;

function describe(error: ApiError): string {
  // Each shortened, and at most MESSAGE_FIELD_ERRORS: a server's 422 must not make a message of megabytes.
  const listed = error.errors
    .slice(0, MESSAGE_FIELD_ERRORS)
    .map((e) => shorten(`${where(e)} ${e.detail}${e.code ? ` [${e.code}]` : ""}`))
    .join("; ");
  const more = error.errors.length - MESSAGE_FIELD_ERRORS;
  const fields = more > 0 ? `${listed}; and ${more} more (see errors)` : listed;
  const hint = error.hint ? ` (${error.hint})` : "";
  // The server's words are data in the fields; in the sentence a terminal prints, its control and
  // bidi characters are written as escapes (\x1B), so printing the error cannot drive the terminal.
  return terminalSafe(`${error.method} ${error.path} failed with ${error.status} (${error.title}): ${error.detail}${fields ? ` - ${fields}` : ""}${hint}`);
}

/** The client's own words for the service's answer to an organisation key without a workspace. */
export const WORKSPACE_HINT = workspaceAdvice("the client's tenantId option");

/**
 * An error response of the Deployment Management Service, read whatever its shape: problem+json,
 * the real service's FastAPI `{"detail": …}` bodies, text or an HTML page from a proxy. Also thrown
 * by the client for a 2xx whose body is not JSON.
 */
export class ApiError extends Error {
  override readonly name = "ApiError";
  /** The HTTP status of the response. */
  readonly status: number;
  /** The request method, such as `PATCH`. */
  readonly method: string;
  /** The URL path of the request, such as `/v2/deployments/…`. */
  readonly path: string;
  /** The problem `type` URI the server sent, if any. */
  readonly type: string | undefined;
  /** Which kind of error this is (a key of PROBLEM_TYPES), from `type`, else from the status where that is unambiguous. */
  readonly kind: ProblemKind | undefined;
  /** The body's `title`, else the HTTP reason phrase (`Bad Gateway`). */
  readonly title: string;
  /** The body's `detail` (or a short readable text of a text or HTML body), else a sentence saying there was none. */
  readonly detail: string;
  readonly instance: string | undefined;
  /** One entry per rejected field: `pointer` into the body or the `parameter` name, `detail`, and `code` when the server gave one. */
  readonly errors: ProblemFieldError[];
  /**
   * What to do about it, when the client knows: for the service's 403 to an organisation-scoped API
   * key sent without a workspace ("requires workspace specification"), set the `tenantId` option.
   */
  readonly hint: string | undefined;
  /** The response body when it was problem details (a JSON object), as the server sent it. */
  declare readonly problem: Problem | undefined;
  /** The response body as received: parsed JSON, else the text. */
  declare readonly body: unknown;
  /** The response, for its headers (`Retry-After`, for example). Its body has been read. */
  declare readonly response: Response;

  constructor(response: Response, body: unknown, options: ApiErrorOptions = {}) {
    super("", options.cause === undefined ? undefined : { cause: options.cause });
    const request = options.request ?? requestOfResponse.get(response);
    const read = readProblem(response.status, body, {
      statusText: response.statusText,
      contentType: response.headers.get("Content-Type") ?? "",
    });
    this.status = response.status;
    this.method = request?.method ?? "UNKNOWN";
    this.path = pathOf(request?.url ?? response.url);
    this.type = read.type;
    this.kind = read.kind;
    this.title = options.title ?? read.title;
    this.detail = options.detail ?? read.detail;
    this.instance = read.instance;
    this.errors = read.errors;
    this.hint = isWorkspaceRequired(this.status, this.detail) ? WORKSPACE_HINT : undefined;
    // Not enumerable, so that printing the error (node lists an uncaught error's own enumerable
    // fields) shows the error, not a Response and the raw body.
    Object.defineProperty(this, "problem", { value: read.problem, enumerable: false });
    Object.defineProperty(this, "body", { value: body, enumerable: false });
    Object.defineProperty(this, "response", { value: response, enumerable: false });
    this.message = describe(this);
  }

  /** What console.error and util.inspect print: the message and the stack, no internals. */
  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return this.stack ?? `${this.name}: ${this.message}`;
  }
}

/**
 * A success answer whose body breaks the document where the client reads it: the service's error,
 * said as one (an ApiError titled "Invalid response body", with `detail` saying what is wrong),
 * never a TypeError of the code that reads it nor "undefined" in a message. `read` is the response,
 * or, where it is no longer at hand (read earlier, elsewhere), the request that read it.
 */
export function invalidResponseBody(read: Response | RequestLine, body: unknown, detail: string, cause?: unknown): ApiError {
  const title = "Invalid response body";
  // A Response has a status; a RequestLine only a method and a URL.
  if ("status" in read) return new ApiError(read, body, { title, detail, cause });
  return new ApiError(new Response(null, { status: 200 }), body, { request: read, title, detail, cause });
}

/** The result of any client call: openapi-fetch's `{ data, error, response }`. */
export interface ClientResult<Data> {
  data?: Data;
  error?: unknown;
  response: Response;
}

/**
 * The data of a successful response, or an ApiError thrown for an error response.
 * `const deployment = unwrap(await client.GET("/v2/deployments/{deployment_id}", { params }));`
 */
export function unwrap<R extends ClientResult<unknown>>(result: R): Exclude<R["data"], undefined> {
  if (!result.response.ok || result.error !== undefined) {
    throw new ApiError(result.response, result.error);
  }
  return result.data as Exclude<R["data"], undefined>;
}
