// createDeploymentsClient: an openapi-fetch client typed by generated/schema.d.ts, with the
// authentication headers, the document's query encoding, and retries of GET requests.
import createClient, {
  type Client,
  type ClientPathsWithMethod,
  type FetchResponse,
  type HeadersOptions,
  type MaybeOptionalInit,
} from "openapi-fetch";
import type { paths } from "../generated/schema.js";
import { rememberRequest } from "./errors.js";
import { DEFAULT_RETRY, type FetchFunction, type RetryOptions, withRetry } from "./retry.js";

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
export type ResultFor<P extends PathWith<M>, M extends Method> =
  paths[P][M] extends infer Operation extends Record<string | number, any> ? FetchResponse<Operation, {}, MediaType> : never;

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

export interface DeploymentsClientOptions {
  /** The service root, such as `https://api.example.com` or `http://127.0.0.1:4010` for the mock. */
  baseUrl: string;
  /** Sent as `X-Api-Key` on every request. */
  apiKey: string;
  /** Sent as `X-Tenant-Id` when given: selects the workspace. */
  tenantId?: string;
  /** The fetch to send requests with; globalThis.fetch by default. */
  fetch?: FetchFunction;
  /** Extra headers for every request. */
  headers?: HeadersOptions;
  /** Retries of GET requests on 429, 502, 503, 504 and network failures; `{ retries: 0 }` turns them off. */
  retry?: Partial<RetryOptions>;
}

export function createDeploymentsClient(options: DeploymentsClientOptions): DeploymentsClient {
  const { baseUrl, apiKey, tenantId, headers, retry } = options;
  const fetchOnce: FetchFunction = options.fetch ?? ((request) => globalThis.fetch(request));
  const client = createClient<paths>({
    baseUrl,
    headers,
    // Field by field, so that an explicit `undefined` keeps the default.
    fetch: withRetry(fetchOnce, {
      retries: retry?.retries ?? DEFAULT_RETRY.retries,
      minDelayMs: retry?.minDelayMs ?? DEFAULT_RETRY.minDelayMs,
      maxDelayMs: retry?.maxDelayMs ?? DEFAULT_RETRY.maxDelayMs,
    }),
    // The document encodes array query parameters (tag_value_ids, deployment_ids, revision status)
    // comma-separated (style form, explode false); openapi-fetch repeats the key by default.
    querySerializer: { array: { style: "form", explode: false } },
  });
  client.use({
    onRequest({ request }) {
      request.headers.set("X-Api-Key", apiKey);
      if (tenantId !== undefined) request.headers.set("X-Tenant-Id", tenantId);
      return request;
    },
    onResponse({ request, response }) {
      // Lets ApiError name the method and path of a failed call.
      rememberRequest(response, request);
      return undefined;
    },
  });
  // The same functions, with the stricter signatures above.
  return client as unknown as DeploymentsClient;
}
