// createDeploymentsClient: an openapi-fetch client typed by generated/schema.d.ts, with the
// authentication headers, the document's query encoding, a deadline per attempt, retries of GET
// requests, and success bodies checked to be the JSON the document promises.
import createClient, { type Client, type ClientPathsWithMethod, type FetchResponse, type HeadersOptions, type MaybeOptionalInit } from "openapi-fetch";
import type { paths } from "../../generated/schema.js";
import { rememberRequest } from "./errors.js";
import { readSuccessData, serializeJsonBody } from "./json-body.js";
import { checkDelay, checkFunction, checkHeaders, checkHeaderValue, checkWholeNumber, resolveBaseUrl } from "./option-checks.js";
import { serializePath } from "./path-params.js";
import { sameOriginRedirects } from "./redirects.js";
import type { RequestFetch } from "./request-fetch.js";
import { boundedResponses, checkMaxResponseBytes, DEFAULT_MAX_RESPONSE_BYTES } from "./response-size.js";
import { DEFAULT_RETRY, type RetryOptions, withRetries } from "./retry.js";
import { DEFAULT_TIMEOUT_MS, RequestTimeoutError, withDeadline } from "./timeout.js";
import { type UntypedCall, type UntypedInit, untypedMethods } from "./untyped-call.js";

type Method = "get" | "patch";
type MediaType = `${string}/${string}`;
/** A path of the document that has this method, such as "/v2/deployments/{deployment_id}" for "patch". */
export type PathWith<M extends Method> = ClientPathsWithMethod<Client<paths>, M>;
/** The second argument of GET or PATCH for a path: params, body, and fetch options such as signal and headers. */
export type RequestInitFor<P extends PathWith<M>, M extends Method> = Exclude<MaybeOptionalInit<paths[P], M>, undefined> & {
  /** Responses are parsed as JSON, which is what the types describe. */
  parseAs?: "json";
};
/** The result of GET or PATCH: `{ data }` on success, `{ error }` (the problem details) on an error status, and the `response`. */
export type ResultFor<P extends PathWith<M>, M extends Method> = paths[P][M] extends infer Operation extends Record<string | number, unknown>
  ? FetchResponse<Operation, Record<never, never>, MediaType>
  : never;

// openapi-fetch infers the whole init argument as a type parameter, so TypeScript does not check
// object literals in it for excess properties: a read-only or unknown field in a PATCH body, or an
// unknown query parameter, compiles. These signatures fix the init type from the path, so it does.
type StrictMethod<M extends Method> = <P extends PathWith<M>>(
  path: P,
  ...init: undefined extends MaybeOptionalInit<paths[P], M> ? [init?: RequestInitFor<P, M>] : [init: RequestInitFor<P, M>]
) => Promise<ResultFor<P, M>>;

/**
 * The typed client, an openapi-fetch client whose GET and PATCH are checked strictly against the
 * document: `const { data, error, response } = await client.GET(path, { params })`.
 */
export type DeploymentsClient = Omit<Client<paths>, "GET" | "PATCH"> & { GET: StrictMethod<"get">; PATCH: StrictMethod<"patch"> };

// Every optional option also takes `undefined`, which keeps the default: with exactOptionalPropertyTypes
// a consumer can still pass `apiKey: process.env.DMS_API_KEY`.
export interface DeploymentsClientOptions {
  /**
   * The service root: an http(s) URL such as `https://api.example.com` or `http://127.0.0.1:4010` for
   * the mock, or, in a browser, one relative to the page such as `/api` (resolved once, against
   * `location`, when the client is created).
   */
  baseUrl: string;
  /**
   * Sent as `X-Api-Key` on every request; must not be empty. Leave it out when something else adds
   * the key, such as a same-origin proxy in front of a browser app.
   */
  apiKey?: string | undefined;
  /** Sent as `X-Tenant-Id` when given (not empty): selects the workspace. */
  tenantId?: string | undefined;
  /** The fetch to send requests with; globalThis.fetch by default. */
  fetch?: RequestFetch | undefined;
  /** Extra headers for every request. */
  headers?: HeadersOptions | undefined;
  /**
   * The longest one attempt may take, from sending the request to the last byte of the response body.
   * Default 30,000 ms. A GET that times out is retried like a network failure; the error after the
   * last attempt is a RequestTimeoutError.
   */
  timeoutMs?: number | undefined;
  /**
   * The longest response body the client reads, in bytes. Default 134,217,728 (128 MiB). A longer
   * body (by its Content-Length, or as it arrives) rejects the call with a ResponseTooLargeError,
   * which is not retried; the rest of the body is not read.
   */
  maxResponseBytes?: number | undefined;
  /** Retries of GET requests on 429, 502, 503, 504, network failures and timeouts; `{ retries: 0 }` turns them off. */
  retry?: { [K in keyof RetryOptions]?: RetryOptions[K] | undefined } | undefined;
}

const WHERE = "createDeploymentsClient";

/** The options with their defaults, or a TypeError naming the first bad one. */
function checkOptions(options: DeploymentsClientOptions) {
  if (typeof options !== "object" || options === null) throw new TypeError(`${WHERE}: expected an options object`);
  const { retry = {} } = options;
  // null, a number or a string would read as "no retry options" (or fail as a property of null).
  if (typeof retry !== "object" || retry === null || Array.isArray(retry)) {
    throw new TypeError(`${WHERE}: retry must be an object such as { retries: 3 }, got ${JSON.stringify(retry) ?? String(retry)}`);
  }
  if (options.tenantId !== undefined) checkHeaderValue(WHERE, "tenantId", options.tenantId);
  checkHeaders(WHERE, "headers", options.headers);
  if (options.fetch !== undefined) checkFunction(WHERE, "fetch", options.fetch);
  // Field by field, so that an explicit `undefined` keeps the default.
  const orDefault = <T>(value: T | undefined, fallback: T, check: (value: T) => T) => (value === undefined ? fallback : check(value));
  return {
    baseUrl: resolveBaseUrl(WHERE, "baseUrl", options.baseUrl),
    apiKey: options.apiKey === undefined ? undefined : checkHeaderValue(WHERE, "apiKey", options.apiKey),
    timeoutMs: orDefault(options.timeoutMs, DEFAULT_TIMEOUT_MS, (v) => checkDelay(WHERE, "timeoutMs", v, true)),
    maxResponseBytes: orDefault(options.maxResponseBytes, DEFAULT_MAX_RESPONSE_BYTES, (v) => checkMaxResponseBytes(WHERE, v)),
    retry: {
      retries: orDefault(retry.retries, DEFAULT_RETRY.retries, (v) => checkWholeNumber(WHERE, "retry.retries", v)),
      minDelayMs: orDefault(retry.minDelayMs, DEFAULT_RETRY.minDelayMs, (v) => checkDelay(WHERE, "retry.minDelayMs", v)),
      maxDelayMs: orDefault(retry.maxDelayMs, DEFAULT_RETRY.maxDelayMs, (v) => checkDelay(WHERE, "retry.maxDelayMs", v)),
    },
  };
}

type Settings = ReturnType<typeof checkOptions> & { fetchOnce: RequestFetch };

/** The request path with its path parameters filled in, for messages: `/v2/deployments/6b0d…`. */
function filledPath(path: string, init: UntypedInit): string {
  const values = init.params?.path ?? {};
  return path.replace(/\{([^}]+)\}/g, (whole, name: string) => (name in values ? encodeURIComponent(String(values[name])) : whole));
}

/**
 * GET or PATCH, each attempt under the deadline, GET retried, and the success body parsed here
 * rather than by openapi-fetch, which throws a bare SyntaxError for invalid JSON and returns
 * `undefined` as data for an empty body. Such a response rejects with an ApiError: it is not an
 * answer a caller can branch on, as a network failure is not.
 */
function jsonMethod(call: UntypedCall, method: "GET" | "PATCH", settings: Settings): UntypedCall {
  const retry = method === "GET" ? settings.retry : { ...settings.retry, retries: 0 };
  return async (path, init = {}) => {
    const signal = init.signal ?? undefined;
    const timeoutError = () => new RequestTimeoutError(method, filledPath(path, init), settings.timeoutMs);
    const attempt = (send: RequestFetch) =>
      withDeadline(
        // Every path is filled by serializePath, which refuses a missing parameter; redirects are
        // followed only on the same origin; the final response's body is read within maxResponseBytes.
        (deadline) =>
          call(path, {
            ...init,
            params: { ...init.params, path: init.params?.path ?? {} },
            parseAs: "text",
            signal: deadline,
            fetch: boundedResponses(sameOriginRedirects(send), settings.maxResponseBytes),
          }),
        settings.timeoutMs,
        signal,
        timeoutError,
      );
    // openapi-fetch takes a fetch per call too; the client's own otherwise.
    const result = await withRetries(init.fetch ?? settings.fetchOnce, attempt, retry, signal);
    if (!result.response.ok) return result;
    return { data: readSuccessData(result.response, result.data), response: result.response };
  };
}

/**
 * The typed client. Throws a TypeError naming the option when an option is invalid (`baseUrl` not
 * an http(s) URL, relative without a page to resolve it against, or with user:password@; an empty `apiKey` or `tenantId`, `retries` not a whole number, delays not
 * finite and >= 0, `timeoutMs` not > 0, `maxResponseBytes` not a whole number > 0).
 */
export function createDeploymentsClient(options: DeploymentsClientOptions): DeploymentsClient {
  const checked = checkOptions(options);
  const { baseUrl, apiKey } = checked;
  const { tenantId } = options;
  const fetchOnce: RequestFetch = options.fetch ?? ((request) => globalThis.fetch(request));
  const client = createClient<paths>({
    baseUrl,
    headers: options.headers,
    fetch: fetchOnce,
    // The document encodes array query parameters (tag_value_ids, deployment_ids, revision status)
    // comma-separated (style form, explode false); openapi-fetch repeats the key by default.
    querySerializer: { array: { style: "form", explode: false } },
    // Each path parameter stays inside its segment ("..", "/" and "%" cannot move the request elsewhere).
    pathSerializer: serializePath,
    // Redirects are followed by sameOriginRedirects, never to another origin.
    redirect: "manual",
    // JSON, refusing NaN and the infinities, which JSON.stringify would send as null.
    bodySerializer: serializeJsonBody,
  });
  client.use({
    onRequest({ request }) {
      if (apiKey !== undefined) request.headers.set("X-Api-Key", apiKey);
      if (tenantId !== undefined) request.headers.set("X-Tenant-Id", tenantId);
      return request;
    },
    onResponse({ request, response }) {
      // Lets ApiError name the method and path of a failed call.
      rememberRequest(response, request);
      return undefined;
    },
  });
  const settings = { ...checked, fetchOnce };
  const untyped = untypedMethods(client);
  const GET = jsonMethod(untyped.GET, "GET", settings);
  const PATCH = jsonMethod(untyped.PATCH, "PATCH", settings);
  // The same functions, with the stricter signatures above.
  return { ...client, GET, PATCH } as unknown as DeploymentsClient;
}
