// waitForRevision: poll a revision until it reaches a terminal state, what a CI script does after a patch.
import { jsonExcerpt } from "./problem-details.js";
import { TERMINAL_REVISION_STATUSES } from "../../generated/constants.js";
import type { DeploymentsClient } from "./client.js";
import { invalidResponseBody, unwrap } from "./errors.js";
import { checkDelay, checkFunction } from "./option-checks.js";
import { sleep } from "./sleep.js";
import { terminalSafe } from "../shared/terminal-text.js";
import type { Revision, RevisionStatus } from "../shared/types.js";

/** Every option also takes `undefined`, which keeps the default (for exactOptionalPropertyTypes). */
export interface WaitForRevisionOptions {
  /** Give up after this long, rejecting with RevisionWaitTimeoutError. Default 15 minutes. */
  timeoutMs?: number | undefined;
  /** The pause between two polls. Default 2,000 ms. */
  intervalMs?: number | undefined;
  /** Stops the wait; the promise rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  /** Called with the first status seen and each time it changes. */
  onStatus?: ((status: RevisionStatus, revision: Revision) => void) | undefined;
  /**
   * When true, a revision that ends in any terminal state other than DEPLOYED rejects with
   * RevisionFailedError. Default false: the promise resolves with the revision whatever terminal
   * state it reached, and the caller looks at `status`.
   */
  throwOnFailure?: boolean | undefined;
}

export const DEFAULT_WAIT = Object.freeze({ timeoutMs: 15 * 60_000, intervalMs: 2_000 });

/**
 * The timeout and interval with their defaults, or a TypeError naming a bad one: `timeoutMs` must be
 * > 0, `intervalMs` >= 0, both finite. deployRevision checks them before it patches anything.
 */
export function checkWaitOptions(options: WaitForRevisionOptions, where = "waitForRevision"): { timeoutMs: number; intervalMs: number } {
  // Every option is checked here, before deployRevision or rollbackDeployment patches anything: a bad
  // one found after the PATCH would leave a revision created and the caller with an error.
  if (typeof options !== "object" || options === null || Array.isArray(options)) throw new TypeError(`${where}: options must be an object`);
  const { timeoutMs, intervalMs, signal, onStatus, throwOnFailure } = options;
  if (signal !== undefined && !(signal instanceof AbortSignal)) throw new TypeError(`${where}: signal must be an AbortSignal`);
  if (onStatus !== undefined) checkFunction(where, "onStatus", onStatus);
  if (throwOnFailure !== undefined && typeof throwOnFailure !== "boolean") throw new TypeError(`${where}: throwOnFailure must be true or false`);
  return {
    timeoutMs: timeoutMs === undefined ? DEFAULT_WAIT.timeoutMs : checkDelay(where, "timeoutMs", timeoutMs, true),
    intervalMs: intervalMs === undefined ? DEFAULT_WAIT.intervalMs : checkDelay(where, "intervalMs", intervalMs),
  };
}

const terminal: ReadonlySet<string> = new Set(TERMINAL_REVISION_STATUSES);

export function isTerminalRevisionStatus(status: string | undefined): boolean {
  return status !== undefined && terminal.has(status);
}

/** The revision did not reach a terminal state within `timeoutMs`. */
export class RevisionWaitTimeoutError extends Error {
  override readonly name = "RevisionWaitTimeoutError";
  constructor(
    readonly deploymentId: string,
    readonly revisionId: string,
    readonly timeoutMs: number,
    /** The last status polled, undefined if no poll answered in time. */
    readonly lastStatus: RevisionStatus | undefined,
  ) {
    super(
      terminalSafe(
        `revision ${revisionId} of deployment ${deploymentId} did not reach a terminal state within ${timeoutMs} ms; ` +
          `last status: ${lastStatus ?? "none received"}`,
      ),
    );
  }
}

/** With `throwOnFailure`: the revision ended in a terminal state other than DEPLOYED. */
export class RevisionFailedError extends Error {
  override readonly name = "RevisionFailedError";
  constructor(readonly revision: Revision) {
    super(terminalSafe(`revision ${revision.id} ended ${revision.status}`));
  }
}

/**
 * Polls GET /v2/deployments/{deploymentId}/revisions/{revisionId} until the revision's status is
 * terminal (DEPLOYED, CREATE_FAILED, BUILD_FAILED, DEPLOY_FAILED, SKIPPED, INTERRUPTED) and
 * resolves with it. Rejects with ApiError on an error response (after the client's own retries),
 * RevisionWaitTimeoutError on timeout, the signal's reason on abort, and, with `throwOnFailure`,
 * RevisionFailedError when the revision did not end DEPLOYED. Throws a TypeError for a bad
 * `timeoutMs` or `intervalMs`.
 */
export async function waitForRevision(
  client: DeploymentsClient,
  deploymentId: string,
  revisionId: string,
  options: WaitForRevisionOptions = {},
): Promise<Revision> {
  const { timeoutMs, intervalMs } = checkWaitOptions(options);
  const { onStatus } = options;
  let lastStatus: RevisionStatus | undefined;
  // One signal for the caller's abort and the timeout: it cancels the request in flight too.
  const stop = new AbortController();
  const timer = setTimeout(() => stop.abort(new RevisionWaitTimeoutError(deploymentId, revisionId, timeoutMs, lastStatus)), timeoutMs);
  const onCallerAbort = () => stop.abort(options.signal?.reason);
  if (options.signal?.aborted) onCallerAbort();
  options.signal?.addEventListener("abort", onCallerAbort, { once: true });
  try {
    for (;;) {
      stop.signal.throwIfAborted();
      const result = await client
        .GET("/v2/deployments/{deployment_id}/revisions/{revision_id}", {
          params: { path: { deployment_id: deploymentId, revision_id: revisionId } },
          signal: stop.signal,
        })
        .catch((error: unknown) => {
          // fetch rejects with its own AbortError in some runtimes: report why we stopped instead.
          throw stop.signal.aborted ? stop.signal.reason : error;
        });
      const revision = unwrap(result);
      // A status that is not text would never be terminal: the wait would poll until its timeout and
      // report "[object Object]" as the last status.
      if (typeof (revision as { status?: unknown } | null)?.status !== "string") {
        throw invalidResponseBody(
          result.response,
          revision,
          `the ${result.response.status} response is not a revision: its "status" is ${jsonExcerpt((revision as { status?: unknown } | null)?.status, 60) ?? "missing"}, not a string`,
        );
      }
      if (revision.status !== lastStatus) {
        lastStatus = revision.status;
        onStatus?.(revision.status, revision);
      }
      if (isTerminalRevisionStatus(revision.status)) {
        if (options.throwOnFailure && revision.status !== "DEPLOYED") throw new RevisionFailedError(revision);
        return revision;
      }
      await sleep(intervalMs, stop.signal);
    }
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onCallerAbort);
  }
}
