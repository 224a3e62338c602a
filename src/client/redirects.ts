// Redirects, followed by the client itself so that nothing it sends leaves the service's origin:
// every request goes out with `redirect: "manual"`; a 301/302/303/307/308 to the same origin is
// followed here (the method and body kept, except 303 which turns into a GET without a body, as
// browsers do), and one to another origin is refused with a RedirectError before anything is sent
// there, so `X-Api-Key`, `X-Tenant-Id`, custom headers and a PATCH body with secret values never
// reach another origin. A browser hides the target of a manual redirect (an "opaqueredirect"
// response with status 0): that is refused too, since where it leads cannot be checked.
import type { RequestFetch } from "./request-fetch.js";

/** Redirects followed before giving up: the same limit order of magnitude as browsers (20) would hide loops for long. */
export const MAX_REDIRECTS = 5;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * The service answered a redirect the client does not follow: to another origin, one it cannot see
 * (in a browser), or one redirect too many. Nothing was sent to the redirect's target. Not retried.
 */
export class RedirectError extends Error {
  override readonly name = "RedirectError";
  constructor(
    readonly method: string,
    readonly url: string,
    readonly status: number,
    /** Where the redirect leads, when it could be read, without any user:password@ it carried. */
    readonly location: string | undefined,
    reason: string,
  ) {
    super(`${method} ${url} answered a redirect (${status || "opaque"}) that the client does not follow: ${reason}`);
  }
}

/** The request for the next hop, or undefined when the response is not a redirect to follow. */
function nextRequest(request: Request, response: Response, body: ArrayBuffer | undefined, hops: number): Request | undefined {
  if (response.type === "opaqueredirect") {
    throw new RedirectError(
      request.method,
      request.url,
      0,
      undefined,
      "a browser does not show where it leads, so it cannot be checked to stay on the same origin; point baseUrl at the final URL (or a same-origin proxy)",
    );
  }
  if (!REDIRECT_STATUSES.has(response.status)) return undefined;
  const location = response.headers.get("Location");
  // A 3xx without a Location is an answer like any other: it reaches the caller as an error status.
  if (location === null) return undefined;
  let target: URL;
  try {
    target = new URL(location, request.url);
  } catch {
    throw new RedirectError(request.method, request.url, response.status, location, "its Location is not a URL");
  }
  // Credentials in a Location are never followed (fetch cannot send a request to such a URL, and
  // its error would repeat them) and never kept in the error: the URL is reported without them.
  const credentials = target.username !== "" || target.password !== "";
  target.username = "";
  target.password = "";
  if (credentials) {
    throw new RedirectError(
      request.method,
      request.url,
      response.status,
      target.href,
      "its Location carries user:password@, which the client never sends (not shown); the API key goes in apiKey",
    );
  }
  const origin = new URL(request.url).origin;
  if (target.origin !== origin) {
    throw new RedirectError(
      request.method,
      request.url,
      response.status,
      target.href,
      `it leads to another origin (${target.origin}), and the API key, tenant, headers and body are only sent to ${origin}; set baseUrl to the final URL`,
    );
  }
  if (hops >= MAX_REDIRECTS)
    throw new RedirectError(request.method, request.url, response.status, target.href, `more than ${MAX_REDIRECTS} redirects in a row`);
  const toGet = response.status === 303 && request.method !== "GET" && request.method !== "HEAD";
  const headers = new Headers(request.headers);
  if (toGet) {
    headers.delete("Content-Type");
    headers.delete("Content-Length");
  }
  return new Request(target, {
    method: toGet ? "GET" : request.method,
    headers,
    body: toGet ? undefined : body,
    signal: request.signal,
    redirect: "manual",
  });
}

/**
 * A fetch that sends each request with `redirect: "manual"` and follows same-origin redirects
 * itself. A cross-origin or unreadable redirect rejects with a RedirectError.
 */
export function sameOriginRedirects(fetchOnce: RequestFetch): RequestFetch {
  return async (first) => {
    let request = first.redirect === "manual" ? first : new Request(first, { redirect: "manual" });
    // The body is read once, so that a followed 307/308 can send it again.
    const body = request.body === null ? undefined : await request.clone().arrayBuffer();
    for (let hops = 0; ; hops++) {
      const response = await fetchOnce(request);
      const next = nextRequest(request, response, body, hops);
      if (next === undefined) return response;
      await response.body?.cancel().catch(() => undefined);
      request = next;
    }
  };
}
