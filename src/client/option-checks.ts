// Checks of option values, so that a bad option fails at once with a TypeError naming it instead of
// later as an empty header, endless retries (NaN), a timer that fires at once, or a header or URL
// that fetch cannot send (which would look like a network failure).
import { fetchPortProblem, headerValueProblem, urlProblem } from "../shared/header-value.js";

/** setTimeout fires at once for longer delays than this (a 32-bit signed count of milliseconds). */
const MAX_TIMER_MS = 2 ** 31 - 1;

function shown(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

function fail(where: string, name: string, rule: string, value: unknown): never {
  throw new TypeError(`${where}: ${name} must be ${rule}, got ${shown(value)}`);
}

/**
 * A value sent as a header: a non-empty string that fetch can send as it is. The value is not
 * shown in the message (an API key is a secret).
 */
export function checkHeaderValue(where: string, name: string, value: unknown): string {
  // Blank: the message of every other non-empty string option (a blank value is no secret).
  if (typeof value !== "string" || value.trim() === "") fail(where, name, "a non-empty string", value);
  const problem = headerValueProblem(value);
  if (problem) throw new TypeError(`${where}: ${name} cannot be sent as a header: ${problem} (the value is not shown)`);
  return value;
}

/** Extra headers (a Headers, an object or a list of pairs): each value as checkHeaderValue, named `headers["X-Name"]`. */
export function checkHeaders(where: string, name: string, value: unknown): void {
  if (value === undefined || value === null) return;
  let entries: Iterable<unknown>;
  if (typeof Headers !== "undefined" && value instanceof Headers) return; // Headers checked its own values
  if (Array.isArray(value)) entries = value;
  else if (typeof value === "object") entries = Object.entries(value as object);
  else throw new TypeError(`${where}: ${name} must be an object of header names to values`);
  for (const entry of entries) {
    const [key, v] = Array.isArray(entry) ? entry : [undefined, undefined];
    const label = `${name}[${JSON.stringify(String(key))}]`;
    // openapi-fetch drops null and undefined values; arrays are sent joined.
    if (v === undefined || v === null) continue;
    for (const one of Array.isArray(v) ? v : [v]) {
      const problem = headerValueProblem(String(one));
      if (problem) throw new TypeError(`${where}: ${label} cannot be sent as a header: ${problem} (the value is not shown)`);
    }
  }
}

/**
 * The service root as an absolute http(s) URL without a trailing slash. A relative value ("/api")
 * is resolved against the page's location (globalThis.location, in a browser or a worker); without
 * one (Node), it is a TypeError that says so. A URL with user:password@ is refused: fetch would send
 * the credentials to every origin it is redirected to, and messages would show them.
 */
export function resolveBaseUrl(where: string, name: string, value: unknown): string {
  if (typeof value !== "string" || value.trim() === "") fail(where, name, "an http:// or https:// URL, absolute or relative to the page", value);
  const problem = urlProblem(value);
  if (problem) throw new TypeError(`${where}: ${name} cannot be used as a URL: ${problem}; the URL parser would send the request elsewhere`);
  const page = (globalThis as { location?: { href?: unknown } }).location?.href;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    if (typeof page !== "string") {
      throw new TypeError(
        `${where}: ${name} must be an absolute http:// or https:// URL outside a browser: ${JSON.stringify(value)} is relative, and there is no page location (globalThis.location) to resolve it against`,
      );
    }
    try {
      url = new URL(value, page);
    } catch {
      url = undefined;
    }
  }
  if (url && (url.username !== "" || url.password !== ""))
    throw new TypeError(`${where}: ${name} must be a URL without user:password@ (the key goes in apiKey); not shown, as it holds a password`);
  if (url?.protocol !== "http:" && url?.protocol !== "https:") fail(where, name, "an http:// or https:// URL, absolute or relative to the page", value);
  // An empty one too ("http://host/?", "http://host/#"): URL says search and hash are "" for it, but
  // the path appended after it would land in the query or the fragment.
  if (/[?#]/.test(url.href)) fail(where, name, "a URL without ?query or #fragment", value);
  // A port fetch never connects to would fail every call as a network error: refused here, by name.
  const portProblem = fetchPortProblem(url);
  if (portProblem) fail(where, name, `a URL on a port fetch connects to (${portProblem})`, value);
  return url.href.replace(/\/+$/, "");
}

export function checkHttpUrl(where: string, name: string, value: unknown): string {
  let url: URL | undefined;
  try {
    url = typeof value === "string" ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (url?.protocol !== "http:" && url?.protocol !== "https:") fail(where, name, "an absolute http:// or https:// URL", value);
  return value as string;
}

export function checkWholeNumber(where: string, name: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) fail(where, name, "a whole number >= 0", value);
  return value;
}

/** A delay: finite, >= 0 (or > 0 with `positive`), and short enough for setTimeout. */
export function checkDelay(where: string, name: string, value: unknown, positive = false): number {
  const ok = typeof value === "number" && Number.isFinite(value) && (positive ? value > 0 : value >= 0) && value <= MAX_TIMER_MS;
  if (!ok) fail(where, name, `a number of milliseconds ${positive ? "> 0" : ">= 0"} and <= ${MAX_TIMER_MS}`, value);
  return value as number;
}

export function checkFunction(where: string, name: string, value: unknown): void {
  if (typeof value !== "function") fail(where, name, "a function", value);
}
