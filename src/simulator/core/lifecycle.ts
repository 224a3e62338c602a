// The revision state machine. Revisions move one step per `stepMs` of simulated time along the
// document's progression (x-progression); the store moves them before it answers, so real time and
// POST /_simulator/advance both do. A pending failure (fail-next) replaces one step with its failure.
import { nextRevisionStatus, REVISION_PROGRESSION } from "../../shared/revision-rules.js";
import { isoTime } from "./clock.js";
import type { FailureStatus, RevisionRecord, RevisionStatus } from "./model.js";

/** The order a revision moves in when nothing fails, from the document. */
export const PROGRESSION: readonly RevisionStatus[] = REVISION_PROGRESSION;

export const FAILURE_STATUSES: readonly FailureStatus[] = ["CREATE_FAILED", "BUILD_FAILED", "DEPLOY_FAILED"];

/** The state a revision leaves to enter each failure. */
const FAILS_FROM: Record<FailureStatus, RevisionStatus> = {
  CREATE_FAILED: "CREATING",
  BUILD_FAILED: "BUILDING",
  DEPLOY_FAILED: "DEPLOYING",
};

/** Still moving by itself: on the progression and not at its end. */
export function isInProgress(status: RevisionStatus): boolean {
  return nextRevisionStatus(status) !== undefined;
}

export function isFailureStatus(value: unknown): value is FailureStatus {
  return typeof value === "string" && (FAILURE_STATUSES as readonly string[]).includes(value);
}

/** Moves a revision (in place) through every step that is due at `nowMs`. Returns true when its status changed. */
export function advanceRevision(record: RevisionRecord, nowMs: number, stepMs: number): boolean {
  const rev = record.revision;
  let changed = false;
  for (let next = nextRevisionStatus(rev.status); next !== undefined && nowMs >= record.step_at_ms + stepMs; next = nextRevisionStatus(rev.status)) {
    record.step_at_ms += stepMs;
    const failure = record.fail_with;
    rev.status = failure && FAILS_FROM[failure] === rev.status ? failure : next;
    rev.updated_at = isoTime(record.step_at_ms);
    changed = true;
  }
  return changed;
}

/** A newer revision was created: an older one still in progress ends INTERRUPTED. Returns the changed copy, or undefined when it is finished. */
export function interrupted(record: RevisionRecord, nowMs: number): RevisionRecord | undefined {
  if (!isInProgress(record.revision.status)) return undefined;
  return {
    ...record,
    revision: { ...record.revision, status: "INTERRUPTED", updated_at: isoTime(nowMs) },
    step_at_ms: nowMs,
  };
}
