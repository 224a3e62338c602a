// The gate every local server of this package passes a request through before an operation sees
// it, as pure functions: the request target, the body's media type, the JSON text, the route (404,
// 405 with Allow), repeated single-valued query parameters, and the words of the refusals made on
// Host and origin. The simulator's core (in Node, browsers and MSW), the simulator's node:http
// adapter and the mock's front all call these, so one request shape gets one answer from every
// server. The node:http half (Host, CORS, 413, sending) is node-gate.ts. No Node imports.
import { type FieldErrorCode, problemDetails } from "../shared/problems.js";
import type { Problem } from "../shared/types.js";

export type GateProblem = Problem & { status: number };

/** The problem for a request target that no route can take: not a path (a full URL, `*`), a fragment (`#`), or a `%` that does not decode. */
export function requestTargetProblem(target: string): GateProblem | undefined {
  const q = target.indexOf("?");
  const path = q < 0 ? target : target.slice(0, q);
  if (!path.startsWith("/")) {
    return problemDetails("bad-request", "The request target must be a path (/v2/...), not a full URL or *.", path.slice(0, 200));
  }
  // A fragment is the client's own and never sent (RFC 9112, section 3.2): fetch leaves it out, so a
  // target with "#" read over a socket would route a path (or a query value) no fetch can ask for.
  if (target.includes("#")) {
    return problemDetails(
      "bad-request",
      "The request target has a fragment (#), which a client does not send; leave it out, or send # as %23.",
      path.split("#")[0]!.slice(0, 2000),
    );
  }
  if (path.includes("%")) {
    try {
      decodeURIComponent(path);
    } catch {
      return problemDetails("bad-request", "The request path has a % that does not start a valid UTF-8 escape.", path.slice(0, 2000));
    }
  }
  return undefined;
}

const DOT = /^(?:\.|%2e)$/i;
const DOT_DOT = /^(?:\.|%2e){2}$/i;

/**
 * The request target with the `.` and `..` segments of its path removed (RFC 3986 section 5.2.4),
 * a `%2e` read as a dot, as a URL parser does before fetch sends a request: so a server reached
 * over a socket by a client that keeps them (`curl --path-as-is`) answers `/v2/deployments/../listeners`
 * as MSW and the page's simulator answer it, for `/v2/listeners`. The query is left as it is.
 */
export function withoutDotSegments(target: string): string {
  const q = target.indexOf("?");
  const path = q < 0 ? target : target.slice(0, q);
  if (!path.startsWith("/") || !/\/(?:\.|%2e)/i.test(path)) return target;
  const segments = path.split("/").slice(1);
  const kept: string[] = [];
  for (const [i, segment] of segments.entries()) {
    if (DOT_DOT.test(segment)) kept.pop();
    else if (!DOT.test(segment)) {
      kept.push(segment);
      continue;
    }
    // A dot segment last leaves the path ending in "/" (`/a/b/..` is `/a/`).
    if (i === segments.length - 1) kept.push("");
  }
  return `/${kept.join("/")}${q < 0 ? "" : target.slice(q)}`;
}

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const QUOTED = '"(?:[^"\\\\]|\\\\.)*"';
// RFC 9110 media-type: type "/" subtype *( OWS ";" OWS [ parameter ] ), parameter = token "=" ( token / quoted-string ).
const MEDIA_TYPE = new RegExp(`^\\s*(${TOKEN})/(${TOKEN})((?:\\s*;\\s*(?:${TOKEN}=(?:${TOKEN}|${QUOTED}))?)*)\\s*$`);

/** A Content-Type read as exactly one media type: its `type/subtype`, lower-cased ("" when absent). */
export type MediaType = { mediaType: string } | { invalid: true };

/**
 * Reads a Content-Type header. Anything that is not exactly one media type (`a/b, c/d`, `json`,
 * `a/b; x`) is `invalid`, answered 415 by every server (never passed to a body parser that throws).
 */
export function parseMediaType(header: string | null | undefined): MediaType {
  if (header === null || header === undefined || header.trim() === "") return { mediaType: "" };
  const match = MEDIA_TYPE.exec(header);
  if (!match) return { invalid: true };
  return { mediaType: `${match[1]}/${match[2]}`.toLowerCase() };
}

/**
 * The 415 for a body whose Content-Type is not one of `listed` (or not one media type at all);
 * undefined when the body may be read. Without a Content-Type, a server reads the body first and
 * sends this only when the body is not empty: a request with neither is answered that the body is
 * required (422), which says more.
 */
export function unsupportedMediaType(listed: readonly string[], header: string | null | undefined, path: string): GateProblem | undefined {
  const read = parseMediaType(header);
  const wanted = listed.join(" or ");
  if ("invalid" in read) {
    return problemDetails("unsupported-media-type", `Send the body as ${wanted}; the Content-Type header is not one media type.`, path);
  }
  if (listed.includes(read.mediaType)) return undefined;
  return problemDetails("unsupported-media-type", `Send the body as ${wanted}${read.mediaType ? `, not ${read.mediaType}` : ""}.`, path);
}

const BYTE_ORDER_MARK = "\uFEFF";

/**
 * Parses a JSON body. A leading byte-order mark is ignored (RFC 8259 lets a parser do so; some
 * Windows tools write one), so the text parses as it would without it. Malformed JSON is the
 * 400 `malformed-json` problem, with the parser's message in `detail`.
 */
export function parseJsonText(text: string, path: string): { value: unknown } | { problem: GateProblem } {
  const json = text.startsWith(BYTE_ORDER_MARK) ? text.slice(1) : text;
  try {
    return { value: JSON.parse(json) };
  } catch (error) {
    return {
      problem: problemDetails("malformed-json", `The body is not valid JSON: ${(error as Error).message}`, path, [
        { pointer: "", code: "invalid_json", detail: "is not valid JSON" },
      ]),
    };
  }
}

/** Whether a body's text is empty for every server (nothing, or white space and a byte-order mark). */
export function isEmptyBodyText(text: string): boolean {
  return (text.startsWith(BYTE_ORDER_MARK) ? text.slice(1) : text).trim() === "";
}

/** What a route table finds for a path and method. */
export type RouteMatch<T> =
  | { found: true; value: T; pathValues: Record<string, string> }
  | { found: false; problem: GateProblem; headers?: Record<string, string> }
  | { found: false; options: true; headers: { allow: string } };

interface Route<T> {
  segments: (string | { param: string })[];
  byMethod: Map<string, T>;
}

// The order methods are listed in an Allow header.
const METHOD_ORDER = ["GET", "PUT", "POST", "PATCH", "DELETE"];

/**
 * The operations of a document by path template (`/v2/deployments/{deployment_id}`): a `{name}`
 * takes one non-empty segment, decoded. HEAD is answered as GET. A path no template takes is 404;
 * a method the path lacks is 405 with the Allow header. OPTIONS that is not a CORS preflight (the
 * node gate answers those first) is answered 204 with the same Allow header (RFC 9110 section 9.3.7),
 * by every server alike: its `options` match.
 */
export class RouteTable<T> {
  private readonly routes: Route<T>[] = [];

  constructor(operations: Iterable<{ method: string; path: string; value: T }>) {
    const byPath = new Map<string, Route<T>>();
    for (const { method, path, value } of operations) {
      let route = byPath.get(path);
      if (!route) {
        const segments = path
          .split("/")
          .slice(1)
          .map((s) => (s.startsWith("{") && s.endsWith("}") ? { param: s.slice(1, -1) } : s));
        route = { segments, byMethod: new Map() };
        byPath.set(path, route);
        this.routes.push(route);
      }
      route.byMethod.set(method.toUpperCase(), value);
    }
    for (const route of this.routes) {
      route.byMethod = new Map([...route.byMethod].sort(([a], [b]) => METHOD_ORDER.indexOf(a) - METHOD_ORDER.indexOf(b)));
    }
  }

  match(path: string, method: string): RouteMatch<T> {
    const found = this.find(path);
    if (!found) return { found: false, problem: problemDetails("not-found", `There is no operation at ${path}.`, path) };
    const allow = [...found.route.byMethod.keys()].join(", ");
    if (method === "OPTIONS" && !found.route.byMethod.has("OPTIONS")) return { found: false, options: true, headers: { allow } };
    const value = found.route.byMethod.get(method === "HEAD" ? "GET" : method);
    if (value === undefined) {
      return {
        found: false,
        problem: problemDetails("method-not-allowed", `${method} is not allowed on ${path}; allowed: ${allow}.`, path),
        headers: { allow },
      };
    }
    return { found: true, value, pathValues: found.pathValues };
  }

  private find(path: string): { route: Route<T>; pathValues: Record<string, string> } | undefined {
    const parts = path.split("/").slice(1);
    outer: for (const route of this.routes) {
      if (route.segments.length !== parts.length) continue;
      const pathValues: Record<string, string> = {};
      for (let i = 0; i < parts.length; i++) {
        const segment = route.segments[i]!;
        const part = parts[i]!;
        if (typeof segment === "string") {
          if (segment !== part) continue outer;
        } else {
          if (part === "") continue outer;
          try {
            pathValues[segment.param] = decodeURIComponent(part);
          } catch {
            pathValues[segment.param] = part;
          }
        }
      }
      return { route, pathValues };
    }
    return undefined;
  }
}

/** A field error about a parameter, as every server writes it. */
export interface ParameterError {
  parameter: string;
  code: FieldErrorCode;
  detail: string;
}

/**
 * A single-valued query parameter given more than once (`limit=1&limit=2`) is ambiguous: servers
 * differ on which value wins. Every server of this package refuses it (422), naming the parameter.
 */
export function repeatedParameterErrors(query: URLSearchParams | undefined, singleValued: Iterable<string>): ParameterError[] {
  if (!query) return [];
  const errors: ParameterError[] = [];
  for (const name of singleValued) {
    const count = query.getAll(name).length;
    if (count > 1) errors.push({ parameter: name, code: "type", detail: `must be given once, not ${count} times` });
  }
  return errors;
}

/**
 * The 401 for a request without an API key. Every operation of the document requires `X-Api-Key`;
 * a server that accepts only some keys checks the value itself after this.
 */
export function missingApiKeyProblem(apiKey: string | null | undefined, path: string): GateProblem | undefined {
  if (apiKey !== null && apiKey !== undefined && apiKey !== "") return undefined;
  return problemDetails("unauthorized", "Send your API key in the X-Api-Key header.", path);
}

/** The 403 for a request whose Host is not one of the server's names (DNS rebinding); `flagHints` names the flag that adds one (a server without it: false). */
export function foreignHostProblem(hostHeader: string | undefined, path: string, server: string, flagHints = true): GateProblem {
  const host = String(hostHeader ?? "").slice(0, 100);
  return problemDetails(
    "forbidden",
    `This ${server} answers only requests addressed to localhost, 127.0.0.1 or [::1], not to ${JSON.stringify(host)}${flagHints ? " (add a name with --allowed-host)" : ""}.`,
    path,
  );
}

/** The 403 for a state-changing request from a page on another site. */
export function crossSiteWriteProblem(origin: string | undefined, method: string, path: string, server: string, flagHints = true): GateProblem {
  const from = String(origin || "another site").slice(0, 100);
  const hint = flagHints ? " (add its origin with --cors-origin)" : "";
  return problemDetails("forbidden", `A page on ${from} may not send ${method} requests to this ${server}${hint}.`, path);
}
