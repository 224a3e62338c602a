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

// The requests of the attempts in flight. Node's fetch (undici) links the signal given to a Request
// to the fetch only through that Request object, weakly: once fetch has copied it, the Request can
// be garbage collected and an abort (the deadline, or the caller's) then never reaches the fetch.
const inFlight = new Set<Request>();

export function withTimeout(fetchOnce: FetchFunction, timeoutMs: number): FetchFunction {
  return async (request) => {
    // One signal for the caller's abort and this attempt's deadline. Not AbortSignal.any: Node 20
    // can collect the signal it returns while a fetch still depends on it, and the deadline never fires.
    const attempt = new AbortController();
    const onCallerAbort = () => attempt.abort(request.signal.reason);
    if (request.signal.aborted) onCallerAbort();
    request.signal.addEventListener("abort", onCallerAbort, { once: true });
    const timer = setTimeout(
      () => attempt.abort(new RequestTimeoutError(request.method, pathOf(request.url), timeoutMs)),
      timeoutMs,
    );
    const sent = new Request(request, { signal: attempt.signal });
    inFlight.add(sent);
    try {
      const response = await fetchOnce(sent);
      // Reading a copy buffers the body of the response itself, which keeps its url and headers.
      await response.clone().arrayBuffer();
      return response;
    } catch (error) {
      // Report why the attempt stopped (the caller's reason, or the deadline), whatever error the
      // fetch in use made of the abort.
      throw attempt.signal.aborted ? attempt.signal.reason : error;
    } finally {
      clearTimeout(timer);
      inFlight.delete(sent);
      request.signal.removeEventListener("abort", onCallerAbort);
    }
  };
}
