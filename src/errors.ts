// ApiError: an error response of the service as an exception, with the RFC 9457 problem details,
// and unwrap(), which turns an openapi-fetch result into its data or throws an ApiError.
import type { Problem, ProblemFieldError } from "./types.js";

/** The request behind a response, recorded by the client's middleware: a Response knows neither its method nor, when a middleware built it, its URL. */
const requestOfResponse = new WeakMap<Response, { method: string; url: string }>();

export function rememberRequest(response: Response, request: Request): void {
  requestOfResponse.set(response, { method: request.method, url: request.url });
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

function isProblem(body: unknown): body is Problem {
  return typeof body === "object" && body !== null && !Array.isArray(body);
}

function describe(method: string, path: string, status: number, problem: Problem | undefined): string {
  const head = `${method} ${path} failed with ${status}`;
  const summary = [problem?.title, problem?.detail].filter(Boolean).join(": ");
  const fields = (problem?.errors ?? [])
    .map((e) => `${e.pointer ?? e.parameter ?? "?"} ${e.detail}`)
    .join("; ");
  return [head, summary, fields].filter(Boolean).join(" - ");
}

/** An error response (status >= 400) of the Deployment Management Service. */
export class ApiError extends Error {
  override readonly name = "ApiError";
  /** The HTTP status of the response. */
  readonly status: number;
  /** The request method, such as `PATCH`. */
  readonly method: string;
  /** The URL path of the request, such as `/v2/deployments/…`. */
  readonly path: string;
  /** The response body when it was a JSON object (normally `application/problem+json`). */
  readonly problem: Problem | undefined;
  readonly type: string | undefined;
  readonly title: string | undefined;
  readonly detail: string | undefined;
  readonly instance: string | undefined;
  /** One entry per rejected field: `pointer` into the body or the `parameter` name, and `detail`. */
  readonly errors: ProblemFieldError[];
  /** The response, for its headers (`Retry-After`, for example). Its body has been read. */
  readonly response: Response;

  constructor(response: Response, body: unknown, request?: { method: string; url: string }) {
    const known = request ?? requestOfResponse.get(response);
    const method = known?.method ?? "UNKNOWN";
    const path = pathOf(known?.url ?? response.url);
    const problem = isProblem(body) ? body : undefined;
    super(describe(method, path, response.status, problem));
    this.status = response.status;
    this.method = method;
    this.path = path;
    this.problem = problem;
    this.type = problem?.type;
    this.title = problem?.title;
    this.detail = problem?.detail ?? (typeof body === "string" && body ? body : undefined);
    this.instance = problem?.instance;
    this.errors = Array.isArray(problem?.errors) ? problem.errors : [];
    this.response = response;
  }
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
