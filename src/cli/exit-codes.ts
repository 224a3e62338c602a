// The exit codes of `dms`, one per outcome a CI script may want to tell apart.
import { isFailureStatus } from "../shared/revision-rules.js";
import type { RevisionStatus } from "../shared/types.js";

export const EXIT = Object.freeze({
  /** The revision ended DEPLOYED (or the command did what it was asked). */
  ok: 0,
  /** The revision ended CREATE_FAILED, BUILD_FAILED or DEPLOY_FAILED. */
  failed: 1,
  /** Bad command line or configuration: nothing was sent. */
  usage: 2,
  /** The revision did not reach a terminal state within --timeout. */
  timeout: 3,
  /** The revision ended INTERRUPTED or SKIPPED: it was never deployed, though nothing failed. */
  notDeployed: 4,
  /** The patch was applied but created no revision. */
  noRevision: 5,
  /** The API answered an error, or could not be reached after the client's retries. */
  apiError: 6,
  /** dms rollback: no revision to go back to (no active one, or no DEPLOYED one older than it). */
  noRollbackTarget: 7,
  /**
   * dms itself failed (a bug, not the deployment nor the service): never 1, which a pipeline reads as
   * "the revision failed" and may roll back on. 70 is EX_SOFTWARE of sysexits.h.
   */
  internal: 70,
  /** Stopped by Ctrl+C (SIGINT). */
  interrupted: 130,
  /** Stopped by SIGTERM (a cancelled CI job, Kubernetes). */
  terminated: 143,
});

const NOT_DEPLOYED: ReadonlySet<string> = new Set<RevisionStatus>(["INTERRUPTED", "SKIPPED"]);

/** The exit code for a revision in a terminal state. */
export function exitCodeForStatus(status: RevisionStatus | undefined): number {
  if (status === "DEPLOYED") return EXIT.ok;
  if (isFailureStatus(status)) return EXIT.failed;
  if (status !== undefined && NOT_DEPLOYED.has(status)) return EXIT.notDeployed;
  // Only terminal states reach here; a server that ends a wait otherwise is treated as a failure.
  return EXIT.failed;
}
