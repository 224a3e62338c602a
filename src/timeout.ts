// One attempt of a request with a deadline, as a fetch wrapper under the retries: the attempt ends
// when the whole body has arrived, so a server that sends its headers and then stalls, or drops the
// connection mid-body, fails this attempt (and a GET is sent again) instead of hanging the caller.
import { pathOf } from "./errors.js";
import type { FetchFunction } from "./retry.js";

/** How long one attempt may take by default, from sending the request to the last byte of the body. */
export const DEFAULT_TIMEOUT_MS = 30_000;

/** No complete response arrived within `timeoutMs` (on the last attempt, when the request was retried). */
export class RequestTimeoutError extends Error {
  override readonly name = "RequestTimeoutError";
  constructor(
    readonly method: string,
    readonly path: string,
    readonly timeoutMs: number,
  ) {
    super(`${method} ${path} timed out after ${timeoutMs} ms without a complete response`);
  }
}

export function withTimeout(fetchOnce: FetchFunction, timeoutMs: number): FetchFunction {
  return async (request) => {
    const deadline = new AbortController();
    const timer = setTimeout(
      () => deadline.abort(new RequestTimeoutError(request.method, pathOf(request.url), timeoutMs)),
      timeoutMs,
    );
    try {
      // The caller's signal still cancels; the deadline cancels this attempt only.
      const response = await fetchOnce(new Request(request, { signal: AbortSignal.any([request.signal, deadline.signal]) }));
      // Reading a copy buffers the body of the response itself, which keeps its url and headers.
      await response.clone().arrayBuffer();
      return response;
    } catch (error) {
      // Report why the attempt stopped, whatever error the fetch in use made of the abort.
      if (request.signal.aborted) throw request.signal.reason;
      if (deadline.signal.aborted) throw deadline.signal.reason;
      throw error;
    } finally {
      clearTimeout(timer);
    }
  };
}
