// Write planning, the first half of a write: the StateChanges it makes, computed without touching
// the live state, so that persistence can save them before apply.ts makes them live. The result
// is the record as it will be once they are.
import { createsRevision } from "../../../shared/revision-rules.js";
import { deploymentRow, type StateChange } from "../changes.js";
import { isoTime } from "../clock.js";
import { createRevision, isInProgress } from "../lifecycle.js";
import type { DeploymentPatch, DeploymentRecord, FailureStatus, Listener, ListenerPatch } from "../model.js";
import type { Live } from "./live.js";
import { nextCreatedMs } from "./time.js";

/** The changes of one write, and what the write answers with once they are applied. */
export interface Plan<T> {
  changes: StateChange[];
  result: T;
}

/** The changes of a PATCH of a deployment at simulated time `now`; `result` is the deployment as it will be. */
export function deploymentPatchPlan(live: Live, now: number, record: DeploymentRecord, patch: DeploymentPatch): Plan<DeploymentRecord> {
  const next = copyForWrite(record);
  const d = next.deployment;
  if (patch.source_config) d.source_config = { ...d.source_config, ...patch.source_config };
  if (patch.secrets != null) d.secrets = patch.secrets;
  if (patch.secret_references != null) d.secret_references = patch.secret_references;
  // created_at is handed out now, even if the write is never saved: a gap is harmless, a repeat is not.
  const revisionChanges = createsRevision(patch) ? createRevision(next, patch, now, nextCreatedMs(live, now)) : [];
  d.updated_at = isoTime(now);
  return { changes: deploymentChanges(live, next, revisionChanges), result: next };
}

/** The changes that make the next revision of a deployment end in `status`. */
export function failNextPlan(live: Live, record: DeploymentRecord, status: FailureStatus): Plan<DeploymentRecord> {
  const next = copyForWrite(record);
  next.fail_next = status;
  return { changes: deploymentChanges(live, next, []), result: next };
}

export function listenerPatchPlan(now: number, listener: Listener, patch: ListenerPatch): Plan<Listener> {
  const next: Listener = { ...listener, updated_at: isoTime(now) };
  if (patch.version !== undefined) next.version = patch.version;
  if (patch.compute_config !== undefined) next.compute_config = patch.compute_config;
  return { changes: [{ op: "put_listener", listener: next }], result: next };
}

/** The change that moves the simulated clock `seconds` ahead. */
export function advanceChange(live: Live, seconds: number): StateChange {
  return {
    op: "set_clock",
    clock_offset_ms: live.state.clock_offset_ms + Math.round(seconds * 1000),
    last_created_ms: Math.max(live.state.last_created_ms, live.createdHighWater),
  };
}

/**
 * The changes that save a planned deployment: its row, then the revisions the clock moved since
 * they were last saved (the row holds what those steps changed), then `revisionChanges`.
 */
function deploymentChanges(live: Live, next: DeploymentRecord, revisionChanges: StateChange[]): StateChange[] {
  const id = next.deployment.id;
  const changes: StateChange[] = [{ op: "put_deployment", row: deploymentRow(next) }];
  const moved = live.stepped.get(id);
  if (moved) {
    const planned = new Set(revisionChanges.map((c) => (c.op === "put_revision" ? c.record.revision.id : c.op === "delete_revision" ? c.revision_id : "")));
    for (const revisionId of moved) {
      const current = live.revisionsById.get(revisionId)?.record;
      if (current && !planned.has(revisionId))
        changes.push({ op: "put_revision", deployment_id: id, record: { ...current, revision: { ...current.revision } } });
    }
  }
  changes.push(...revisionChanges);
  return changes;
}

/**
 * A copy of a deployment that a write may change while the live one goes on being served. Revisions
 * still in progress are copied too, since the clock moves the live ones in place; finished ones
 * never change and are shared.
 */
function copyForWrite(record: DeploymentRecord): DeploymentRecord {
  return {
    ...record,
    deployment: { ...record.deployment },
    revisions: record.revisions.map((r) => (isInProgress(r.revision.status) ? { ...r, revision: { ...r.revision } } : r)),
  };
}
