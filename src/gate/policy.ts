// Who may talk to a local server (the simulator, the mock's front): the rules dev servers adopted
// after DNS-rebinding and cross-site attacks on localhost tools. A server on a developer's machine
// answers only requests addressed to it by a loopback name, shares its answers (CORS) only with
// pages served from loopback origins, and lets no other site change its state. Options add names
// and origins. No Node imports: the same rules serve a node:http adapter and a fetch handler.

export interface LocalServerPolicy {
  /**
   * Host names accepted besides the loopback ones (`dev.example.test`; `.example.test` also takes
   * its subdomains), or `true` for any name: the DNS-rebinding guard turned off, as Vite's own
   * `allowedHosts: true` does for the server the Vite plugin runs in.
   */
  allowedHosts?: readonly string[] | true;
  /** Origins allowed to read answers besides loopback ones, as `scheme://host[:port]`. */
  corsOrigins?: readonly string[];
  /**
   * Whether pages served from loopback origins (any port) may read answers and send writes. Default
   * true (a dev UI on localhost:5173 calling the simulator); false for a server that holds a real
   * key (dms mcp --port), which no page on the machine may drive.
   */
  loopbackOrigins?: boolean;
}

// What a page may send cross-origin once its preflight passes: the methods the API and the
// control endpoints use. Headers are whatever the preflight asks for (the origin is trusted then).
const PREFLIGHT_METHODS = "GET, HEAD, PATCH, POST, OPTIONS";
const PREFLIGHT_MAX_AGE_SECONDS = "600";
// Headers a browser page may read from an answer besides the CORS-safelisted ones.
const EXPOSED_HEADERS = "retry-after, location, sl-violations";

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Whether a request's `Host` header names this server. Names, not addresses, are what a DNS
 * rebinding attack controls: a page on `evil.example` whose name later resolves to 127.0.0.1 still
 * sends `Host: evil.example`, and is refused. Any port is accepted (the server may be behind a
 * port forward). A missing or malformed header is refused.
 */
export function isAllowedHost(hostHeader: string | undefined | null, policy: LocalServerPolicy = {}): boolean {
  if (typeof hostHeader !== "string") return false;
  const name = hostName(hostHeader);
  if (name === undefined) return false;
  if (LOOPBACK_HOSTS.has(name) || name.endsWith(".localhost") || policy.allowedHosts === true) return true;
  for (const allowed of policy.allowedHosts ?? []) {
    const wanted = allowed.toLowerCase();
    if (wanted.startsWith(".") ? name === wanted.slice(1) || name.endsWith(wanted) : name === wanted) return true;
  }
  return false;
}

/** The host name of a Host header, lower-cased, without its port or a trailing dot; undefined when it is not one. */
function hostName(hostHeader: string): string | undefined {
  const header = hostHeader.trim().toLowerCase();
  let name: string;
  let rest: string;
  if (header.startsWith("[")) {
    const end = header.indexOf("]");
    if (end < 0) return undefined;
    name = header.slice(0, end + 1);
    rest = header.slice(end + 1);
  } else {
    const colon = header.indexOf(":");
    name = colon < 0 ? header : header.slice(0, colon);
    rest = colon < 0 ? "" : header.slice(colon);
  }
  if (rest !== "" && !/^:\d{1,5}$/.test(rest)) return undefined;
  if (name.endsWith(".")) name = name.slice(0, -1);
  if (!/^(\[[0-9a-f:.]+\]|[a-z0-9_.-]+)$/.test(name)) return undefined;
  return name;
}

/** An Origin header as a URL; undefined unless it is exactly scheme://host[:port] (anything longer is not one). */
function originUrl(origin: string): URL | undefined {
  try {
    const url = new URL(origin);
    return url.origin === origin.toLowerCase() ? url : undefined;
  } catch {
    return undefined;
  }
}

const isWebPage = (url: URL): boolean => url.protocol === "http:" || url.protocol === "https:";

/** Whether a page served from `origin` may read this server's answers. */
export function isAllowedOrigin(origin: string | undefined | null, policy: LocalServerPolicy = {}): boolean {
  if (typeof origin !== "string" || origin === "" || origin === "null") return false;
  const url = originUrl(origin);
  if (!url) return false;
  if (policy.loopbackOrigins !== false && isWebPage(url) && LOOPBACK_HOSTS.has(url.hostname)) return true;
  return (policy.corsOrigins ?? []).some((allowed) => allowed.toLowerCase() === url.origin);
}

/**
 * The CORS headers for an answer to a request from `origin`: the origin itself when it is allowed,
 * never `*`. `Vary: Origin` is always there, so a cache never hands one origin's answer to another.
 */
export function corsHeaders(origin: string | undefined | null, policy: LocalServerPolicy = {}): Record<string, string> {
  if (!isAllowedOrigin(origin, policy)) return { vary: "Origin" };
  return { vary: "Origin", "access-control-allow-origin": origin!, "access-control-expose-headers": EXPOSED_HEADERS };
}

/** Whether a request is a CORS preflight (answer it with `preflightHeaders`, status 204). */
export function isPreflight(method: string | undefined, headers: { origin?: string | null; "access-control-request-method"?: string | null }): boolean {
  return method === "OPTIONS" && !!headers.origin && !!headers["access-control-request-method"];
}

/**
 * The headers of a preflight answer. An allowed origin may send any header it asks for; any other
 * origin gets no CORS headers, so the browser does not send the request at all. Chrome asks a
 * page on a public origin (one added with an option) for leave to reach a loopback server with
 * `Access-Control-Request-Private-Network: true`; pass that header's value to grant it.
 */
export function preflightHeaders(
  origin: string | undefined | null,
  requestedHeaders: string | undefined | null,
  policy: LocalServerPolicy = {},
  requestedPrivateNetwork?: string | null,
): Record<string, string> {
  const base = corsHeaders(origin, policy);
  if (!("access-control-allow-origin" in base)) return base;
  const headers = /^[\w-]+(\s*,\s*[\w-]+)*$/.test(requestedHeaders?.trim() ?? "") ? requestedHeaders!.trim() : "content-type, x-api-key, x-tenant-id";
  return {
    ...base,
    "access-control-allow-methods": PREFLIGHT_METHODS,
    "access-control-allow-headers": headers,
    "access-control-max-age": PREFLIGHT_MAX_AGE_SECONDS,
    ...(requestedPrivateNetwork === "true" ? { "access-control-allow-private-network": "true" } : {}),
  };
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Whether a request that could change state comes from a page on another site. Browsers send
 * form and `text/plain` POSTs cross-site without a preflight, so CORS alone cannot stop them: the
 * server must refuse them itself (403). A request without `Origin` (curl, a script, a test) is not
 * cross-site; `Sec-Fetch-Site: cross-site` without an allowed origin is. A page writing to the
 * server that served it (its Origin names the request's own Host, which the gate has already
 * accepted) is not cross-site either: that is the Vite plugin's page on a name from `allowedHosts`.
 * That holds for a server whose pages may not write (`loopbackOrigins: false`, dms mcp --port) too:
 * it serves no page, so nothing a browser runs has its origin; a request naming it came from a
 * client that wrote the header itself (the MCP conformance suite does, as the DNS-rebinding check
 * of the spec allows), which could as well have sent none.
 */
export function isCrossSiteWrite(
  method: string | undefined,
  headers: { origin?: string | null; host?: string | null; "sec-fetch-site"?: string | null },
  policy: LocalServerPolicy = {},
): boolean {
  if (SAFE_METHODS.has((method ?? "GET").toUpperCase())) return false;
  const origin = headers.origin;
  if (typeof origin === "string" && origin !== "") {
    if (isSameOrigin(origin, headers.host)) return false;
    return !isAllowedOrigin(origin, policy);
  }
  return headers["sec-fetch-site"] === "cross-site";
}

/** Whether an Origin header names the host and port a request was sent to (its Host header). */
function isSameOrigin(origin: string, hostHeader: string | null | undefined): boolean {
  if (typeof hostHeader !== "string" || hostHeader === "") return false;
  const url = originUrl(origin);
  if (!url || !isWebPage(url)) return false;
  // URL drops a scheme's default port; a Host header may carry it (`example.test:80`).
  const defaultPort = url.protocol === "https:" ? "443" : "80";
  const host = hostHeader.trim().toLowerCase();
  return host === url.host || host === `${url.hostname}:${url.port || defaultPort}`;
}

/** Whether a Content-Type header is JSON (`application/json`, `application/*+json`, any parameters). */
export function isJsonContentType(contentType: string | undefined | null): boolean {
  const mediaType = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  return mediaType === "application/json" || /^application\/[\w.-]+\+json$/.test(mediaType);
}

/**
 * Checks one `--allowed-host` value and returns it as `isAllowedHost` compares it: a host name or
 * IP address without scheme or port, lower-cased. Throws an Error that says what is wrong.
 */
export function parseAllowedHost(value: string): string {
  const name = value.trim().toLowerCase();
  const bare = name.startsWith(".") ? name.slice(1) : name;
  if (bare === "" || !/^(\[[0-9a-f:.]+\]|[a-z0-9_-]+(\.[a-z0-9_-]+)*)$/.test(bare)) {
    throw new Error(`"${value}" is not a host name (write it without a scheme or port, e.g. dev.example.test)`);
  }
  return name;
}

/**
 * Checks one `--cors-origin` value and returns it as the browser sends it in `Origin`
 * (`https://app.example.test:8443`). `*` and `null` are refused: they would let any page in.
 */
export function parseCorsOrigin(value: string): string {
  const text = value.trim();
  if (text === "*" || text.toLowerCase() === "null") throw new Error(`"${value}" would let any page read the server's answers; name one origin`);
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || url.origin.toLowerCase() !== text.replace(/\/$/, "").toLowerCase()) {
    throw new Error(`"${value}" is not an origin (scheme://host[:port], e.g. http://app.example.test:3000)`);
  }
  return url.origin;
}
