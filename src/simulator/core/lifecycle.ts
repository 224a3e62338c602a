// Every revision transition, in one place: creation (the new revision, the commit sha, the older
// ones it interrupts, the history it trims), stepping along the document's progression
// (x-progression, one step per `stepMs` of simulated time, a pending fail-next replacing one step
// with its failure), and what reaching DEPLOYED does to the deployment. The store calls these and
// keeps the indexes; routes never call them. Creation returns the per-row changes to save
// (put_revision, delete_revision); history is bounded by count and by bytes; stepping changes live records in place, since the clock's steps
// follow from the clock. No Node imports.
import { FAILURE_STATUSES, isFailureStatus, isInProgress, nextRevisionStatus, REVISION_PROGRESSION } from "../../shared/revision-rules.js";
import type { StateChange } from "./changes.js";
import { isoTime } from "./clock.js";
import type { Deployment, DeploymentPatch, DeploymentRecord, FailureStatus, RevisionRecord, RevisionStatus } from "./model.js";
import { fakeCommitSha } from "./seed.js";

/** The order a revision moves in when nothing fails, from the document. */
export const PROGRESSION: readonly RevisionStatus[] = REVISION_PROGRESSION;

// The failure states and the in-progress test are revision rules of the document; the simulator's
// modules (and its SQLite schema) take them from here.
export { FAILURE_STATUSES, isFailureStatus, isInProgress };

/**
 * Revisions kept per deployment. Past it, the oldest finished revisions are dropped (never the
 * active one): a script patching in a loop must not grow one deployment without end.
 */
export const MAX_REVISIONS_KEPT = 500;

/**
 * Bytes of revision history kept per deployment (as JSON text). Past it, the oldest finished
 * revisions are dropped as past MAX_REVISIONS_KEPT: 500 revisions of large valid configurations
 * must not hold hundreds of megabytes. The deployments are the seed's (the API creates none), so
 * this bounds every deployment's history, and with it the state.
 */
export const MAX_REVISION_HISTORY_BYTES = 4 * 1024 * 1024;

/** The JSON size of each revision, measured once: revisions never change size after creation but for their status and dates. */
const sizes = new WeakMap<RevisionRecord, number>();
function sizeOf(record: RevisionRecord): number {
  let size = sizes.get(record);
  if (size === undefined) {
    size = JSON.stringify(record.revision).length;
    sizes.set(record, size);
  }
  return size;
}

/** The state a revision leaves to enter each failure. */
const FAILS_FROM: Record<FailureStatus, RevisionStatus> = {
  CREATE_FAILED: "CREATING",
  BUILD_FAILED: "BUILDING",
  DEPLOY_FAILED: "DEPLOYING",
};

/** A ref that is already a full commit sha, as a git host resolves it: to that commit. */
const FULL_COMMIT_SHA = /^[0-9a-f]{40}$/i;

/**
 * The commit a ref resolves to. A full sha is that commit (so a rollback that pins the commit an
 * earlier revision was built from builds exactly it); a branch or tag gets a fake sha that differs
 * per revision, as a moving branch would.
 */
function commitShaOf(revisionId: string, ref: string): string {
  return FULL_COMMIT_SHA.test(ref) ? ref.toLowerCase() : fakeCommitSha(`${revisionId}:${ref}`);
}

/**
 * Creates the next revision of a deployment on a planned copy (`record`, changed in place): older
 * revisions still in progress end INTERRUPTED, the new one starts CREATING at `createdMs` with the
 * deployment's revision config merged with the patch's (an scm_host ref gets a commit sha), the
 * deployment's pending failure goes to it, and the oldest finished revisions past
 * MAX_REVISIONS_KEPT are dropped. Returns the revision changes to save.
 */
export function createRevision(record: DeploymentRecord, patch: DeploymentPatch, nowMs: number, createdMs: number): StateChange[] {
  const d = record.deployment;
  const deployment_id = d.id;
  const changes: StateChange[] = [];
  record.revisions = record.revisions.map((older) => {
    const stopped = interrupted(older, nowMs);
    if (!stopped) return older;
    changes.push({ op: "put_revision", deployment_id, record: stopped });
    return stopped;
  });
  const { repo_commit_sha: _previousSha, ...current } = d.source_revision_config;
  const config: Deployment["source_revision_config"] = { ...current, ...(patch.source_revision_config ?? {}) };
  const source = patch.revision_source ?? d.source;
  const id = crypto.randomUUID();
  if (source === "scm_host" && config.repo_ref) config.repo_commit_sha = commitShaOf(id, config.repo_ref);
  const created = isoTime(createdMs);
  const added: RevisionRecord = {
    revision: { id, created_at: created, updated_at: created, status: "CREATING", source, source_revision_config: config },
    remote_reconciled: record.remote_reconciled,
    step_at_ms: createdMs,
    fail_with: record.fail_next,
  };
  record.revisions.push(added);
  changes.push({ op: "put_revision", deployment_id, record: added });
  record.fail_next = null;
  d.source_revision_config = config;
  d.latest_revision_id = id;
  // The oldest finished revisions go (never the active one) while the history is past either bound.
  let excessCount = record.revisions.length - MAX_REVISIONS_KEPT;
  let excessBytes = record.revisions.reduce((sum, r) => sum + sizeOf(r), 0) - MAX_REVISION_HISTORY_BYTES;
  if (excessCount > 0 || excessBytes > 0) {
    record.revisions = record.revisions.filter((r) => {
      const droppable = (excessCount > 0 || excessBytes > 0) && r.revision.id !== d.active_revision_id && !isInProgress(r.revision.status);
      if (droppable) {
        excessCount--;
        excessBytes -= sizeOf(r);
        changes.push({ op: "delete_revision", deployment_id, revision_id: r.revision.id });
      }
      return !droppable;
    });
  }
  return changes;
}

/**
 * Moves a live revision (in place) through every step that is due at `nowMs`, and applies what
 * reaching DEPLOYED does to its deployment. Returns true when its status changed.
 */
export function stepRevision(owner: DeploymentRecord, record: RevisionRecord, nowMs: number, stepMs: number): boolean {
  if (!advanceRevision(record, nowMs, stepMs)) return false;
  if (record.revision.status === "DEPLOYED") onDeployed(owner, record);
  return true;
}

/** Moves a revision (in place) through every step that is due at `nowMs`. Returns true when its status changed. */
function advanceRevision(record: RevisionRecord, nowMs: number, stepMs: number): boolean {
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

/** A revision reached DEPLOYED: it is the active one, a deployment waiting for its database is READY. */
function onDeployed(owner: DeploymentRecord, record: RevisionRecord): void {
  const d = owner.deployment;
  d.active_revision_id = record.revision.id;
  if (d.status === "AWAITING_DATABASE") d.status = "READY";
  d.updated_at = record.revision.updated_at;
}

/** A newer revision was created: an older one still in progress ends INTERRUPTED. Returns the changed copy, or undefined when it is finished. */
function interrupted(record: RevisionRecord, nowMs: number): RevisionRecord | undefined {
  if (!isInProgress(record.revision.status)) return undefined;
  return {
    ...record,
    revision: { ...record.revision, status: "INTERRUPTED", updated_at: isoTime(nowMs) },
    step_at_ms: nowMs,
  };
}
