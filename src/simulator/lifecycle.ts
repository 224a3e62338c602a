// The revision state machine. Revisions move one step per `stepMs` of simulated time; the store
// asks for an advance before it answers, so real time and POST /_simulator/advance both move them.
import type { FailureStatus, RevisionRecord, RevisionStatus } from "./model.js";

export const PROGRESSION: readonly RevisionStatus[] = [
  "CREATING",
  "QUEUED",
  "AWAITING_BUILD",
  "BUILDING",
  "AWAITING_DEPLOY",
  "DEPLOYING",
  "DEPLOYED",
];

export const FAILURE_STATUSES: readonly FailureStatus[] = ["CREATE_FAILED", "BUILD_FAILED", "DEPLOY_FAILED"];

/** The state a revision leaves to enter each failure. */
const FAILS_FROM: Record<FailureStatus, RevisionStatus> = {
  CREATE_FAILED: "CREATING",
  BUILD_FAILED: "BUILDING",
  DEPLOY_FAILED: "DEPLOYING",
};

export function isInProgress(status: RevisionStatus): boolean {
  return status !== "DEPLOYED" && PROGRESSION.includes(status);
}

export function isFailureStatus(value: unknown): value is FailureStatus {
  return typeof value === "string" && (FAILURE_STATUSES as readonly string[]).includes(value);
}

/** Moves a revision through every step that is due at `nowMs`. Returns true when its status changed. */
export function advanceRevision(record: RevisionRecord, nowMs: number, stepMs: number): boolean {
  const rev = record.revision;
  let changed = false;
  while (isInProgress(rev.status) && nowMs >= record.step_at_ms + stepMs) {
    record.step_at_ms += stepMs;
    const failure = record.fail_with;
    rev.status =
      failure && FAILS_FROM[failure] === rev.status ? failure : PROGRESSION[PROGRESSION.indexOf(rev.status) + 1]!;
    rev.updated_at = new Date(record.step_at_ms).toISOString();
    changed = true;
  }
  return changed;
}

/** A newer revision was created: an older one still in progress ends INTERRUPTED. */
export function interruptRevision(record: RevisionRecord, nowMs: number): boolean {
  if (!isInProgress(record.revision.status)) return false;
  record.revision.status = "INTERRUPTED";
  record.revision.updated_at = new Date(nowMs).toISOString();
  record.step_at_ms = nowMs;
  return true;
}
