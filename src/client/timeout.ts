// One attempt of a call with a deadline: the attempt ends when the whole body has been read, so a
// server that never answers, or sends its headers and then stalls, fails the attempt (and a GET is
// sent again) instead of hanging the caller.

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

/**
 * Runs `run` with a signal that aborts at the deadline or when the caller's signal does, and
 * settles at that moment with the reason (a RequestTimeoutError, or the caller's reason). It does
 * not wait for the fetch to notice the abort: Node's fetch links a Request's signal to the fetch
 * through objects it may garbage-collect first, and then the abort never arrives.
 */
export function withDeadline<T>(
  run: (signal: AbortSignal) => Promise<T>,
  timeoutMs: number,
  callerSignal: AbortSignal | undefined,
  timeoutError: () => Error,
): Promise<T> {
  const attempt = new AbortController();
  return new Promise<T>((resolve, reject) => {
    const stop = (reason: unknown) => {
      clearTimeout(timer);
      attempt.abort(reason);
      reject(reason);
    };
    const onCallerAbort = () => stop(callerSignal?.reason);
    const timer = setTimeout(() => stop(timeoutError()), timeoutMs);
    if (callerSignal?.aborted) return onCallerAbort();
    callerSignal?.addEventListener("abort", onCallerAbort, { once: true });
    run(attempt.signal)
      .then(resolve, (error: unknown) => reject(attempt.signal.aborted ? attempt.signal.reason : error))
      .finally(() => {
        clearTimeout(timer);
        callerSignal?.removeEventListener("abort", onCallerAbort);
      });
  });
}
