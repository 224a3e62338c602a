// The revision rules of the document, as functions: which patch creates a revision, and the order a
// revision moves in. The lists come from the document (x-revision-fields on DeploymentPatch,
// x-progression on RevisionStatus), so the client helpers, the CLI and the
// simulator all follow one definition.
import { REVISION_FIELDS, REVISION_PROGRESSION } from "../../generated/constants.js";
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
