// Retries of safe requests (GET, HEAD) on 429, 502, 503 and 504 and on failed attempts (fetch
// rejecting: a dropped connection, a body cut short, an attempt timed out), as a fetch wrapper under openapi-fetch:
// it sees the final Request (headers set by middleware included) and returns the last Response.
// PATCH and every other method go through once: a PATCH that creates a revision is not idempotent.
import { sleep } from "./sleep.js";

export interface RetryOptions {
  /** How many times a request may be sent again after the first attempt. 0 turns retries off. Default 3. */
  retries: number;
  /** The first backoff delay; it doubles with each retry. Default 250 ms. */
  minDelayMs: number;
  /**
   * The longest wait between two attempts. Default 10,000 ms. A `Retry-After` longer than this is not
   * waited for: the response is returned as it is (an ApiError with its `Retry-After` header).
   */
  maxDelayMs: number;
}

export const DEFAULT_RETRY: Readonly<RetryOptions> = Object.freeze({ retries: 3, minDelayMs: 250, maxDelayMs: 10_000 });

const RETRY_STATUSES = new Set([429, 502, 503, 504]);
const RETRY_METHODS = new Set(["GET", "HEAD"]);

export type FetchFunction = (request: Request) => Promise<Response>;

/**
 * Milliseconds to wait from a `Retry-After` value, or undefined if it is absent or unreadable.
 * Reads delay-seconds, with a fraction too (`1.5`: HTTP says whole seconds, servers send fractions),
 * and HTTP dates.
 */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+(?:\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // Every HTTP date format starts with the day's name; Date.parse alone would take "1." or "-1" for a date.
  const date = /^[a-z]{3}/i.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Exponential backoff with jitter: between half and all of minDelayMs * 2^attempt, never above maxDelayMs. */
function backoff(attempt: number, options: RetryOptions): number {
  const ceiling = Math.min(options.maxDelayMs, options.minDelayMs * 2 ** attempt);
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

export function withRetry(fetchOnce: FetchFunction, options: RetryOptions): FetchFunction {
  if (options.retries <= 0) return fetchOnce;
  return async (request) => {
    if (!RETRY_METHODS.has(request.method)) return fetchOnce(request);
    for (let attempt = 0; ; attempt++) {
      // A body-less Request can be sent again as it is.
      let response: Response;
      try {
        response = await fetchOnce(request);
      } catch (error) {
        // The caller's abort stays an abort; any other rejection (the network, the attempt's deadline) is worth another try.
        if (request.signal.aborted || attempt >= options.retries) throw error;
        await sleep(backoff(attempt, options), request.signal);
        continue;
      }
      if (!RETRY_STATUSES.has(response.status) || attempt >= options.retries) return response;
      const retryAfter = parseRetryAfter(response.headers.get("Retry-After"));
      if (retryAfter !== undefined && retryAfter > options.maxDelayMs) return response;
      const delay = retryAfter ?? backoff(attempt, options);
      // Release the connection of the response we drop.
      await response.body?.cancel().catch(() => undefined);
      await sleep(delay, request.signal);
    }
  };
}
