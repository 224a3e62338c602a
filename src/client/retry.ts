// Retries of a call: GET is sent again when it is answered 429, 502, 503 or 504, or when an attempt
// fails on the way (fetch rejecting: a dropped connection, a body cut short, the attempt's deadline).
// The caller says which calls may be retried: a PATCH that creates a revision is not idempotent.
import { RedirectError } from "./redirects.js";
import type { RequestFetch } from "./request-fetch.js";
import { ResponseTooLargeError } from "./response-size.js";
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

/**
 * Runs `attempt` until its response is not worth retrying or `retries` are used up, and returns the
 * last result; rethrows the last failure. `attempt` sends its request with the `send` it is given,
 * so that a failure before anything was sent (a bad header value, say) is thrown at once.
 */
export async function withRetries<R extends { response: Response }>(
  fetchOnce: RequestFetch,
  attempt: (send: RequestFetch) => Promise<R>,
  options: RetryOptions,
  signal?: AbortSignal,
): Promise<R> {
  for (let count = 0; ; count++) {
    let sent = false;
    const send: RequestFetch = (request) => {
      sent = true;
      return fetchOnce(request);
    };
    let result: R;
    try {
      result = await attempt(send);
    } catch (error) {
      // The caller's abort stays an abort; a request that went out and failed is worth another try.
      // A refused redirect would be refused again, and a body too large would be as large again.
      if (!sent || signal?.aborted || count >= options.retries || error instanceof RedirectError || error instanceof ResponseTooLargeError) throw error;
      await sleep(backoff(count, options), signal);
      continue;
    }
    const { response } = result;
    if (!RETRY_STATUSES.has(response.status) || count >= options.retries) return result;
    const retryAfter = parseRetryAfter(response.headers.get("Retry-After"));
    if (retryAfter !== undefined && retryAfter > options.maxDelayMs) return result;
    await sleep(retryAfter ?? backoff(count, options), signal);
  }
}
