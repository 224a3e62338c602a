// The revision rules of the document, as functions: which patch creates a revision, the order a
// revision moves in, which states are failures. The lists come from the document
// (x-revision-fields on DeploymentPatch, x-progression and x-terminal-states on RevisionStatus), so
// the client helpers, the CLI and the simulator all follow one definition.
import { REVISION_FIELDS, REVISION_PROGRESSION, TERMINAL_REVISION_STATUSES } from "../../generated/constants.js";
import type { DeploymentPatch, RevisionStatus } from "./types.js";

export { REVISION_FIELDS, REVISION_PROGRESSION };

/** True when the patch creates a new revision: one of the revision fields is present and not null. `source_config` alone never does. */
export function createsRevision(patch: DeploymentPatch): boolean {
  return REVISION_FIELDS.some((field) => patch[field] !== undefined && patch[field] !== null);
}

/** The state after `status` when nothing fails, or undefined when it does not move on by itself. */
export function nextRevisionStatus(status: RevisionStatus): RevisionStatus | undefined {
  const i = (REVISION_PROGRESSION as readonly string[]).indexOf(status);
  return i >= 0 && i < REVISION_PROGRESSION.length - 1 ? REVISION_PROGRESSION[i + 1] : undefined;
}

/** Still moving by itself: on the progression and not at its end (so never UNKNOWN nor a terminal state). */
export function isInProgress(status: RevisionStatus): boolean {
  return nextRevisionStatus(status) !== undefined;
}

/** A state a revision fails in: the document's terminal states named `*_FAILED`. */
export type FailureStatus = Extract<RevisionStatus, `${string}_FAILED`>;

/** The failure states, in the document's order (CREATE_FAILED, BUILD_FAILED, DEPLOY_FAILED). */
export const FAILURE_STATUSES: readonly FailureStatus[] = Object.freeze(
  TERMINAL_REVISION_STATUSES.filter((status): status is FailureStatus => status.endsWith("_FAILED")),
);

export function isFailureStatus(value: unknown): value is FailureStatus {
  return typeof value === "string" && (FAILURE_STATUSES as readonly string[]).includes(value);
}
