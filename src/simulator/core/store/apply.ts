// Applying, the second half of a write: saved StateChanges made live, synchronously once
// persistence has them, with the indexes kept in step. A record is replaced, never changed in place:
// the old one may still be in an answer being written.
import type { DeploymentRow, StateChange } from "../changes.js";
import type { DeploymentRecord, Listener, RevisionRecord } from "../model.js";
import { indexDeployment, indexRevision, loadState } from "./indexes.js";
import { type Live, touch, unmarkStepped } from "./live.js";

/** Makes saved changes live; `tick` moves the revisions that are due. */
export function applyChanges(live: Live, changes: readonly StateChange[], tick: () => void): void {
  let deploymentsChanged = false;
  for (const change of changes) {
    switch (change.op) {
      case "put_deployment":
        putDeployment(live, change.row);
        deploymentsChanged = true;
        break;
      case "put_revision":
        putRevision(live, change.deployment_id, change.record);
        deploymentsChanged = true;
        break;
      case "delete_revision":
        deleteRevision(live, change.deployment_id, change.revision_id);
        deploymentsChanged = true;
        break;
      case "put_listener":
        putListener(live, change.listener);
        break;
      case "set_clock":
        live.state.clock_offset_ms = change.clock_offset_ms;
        live.state.last_created_ms = change.last_created_ms;
        live.createdHighWater = Math.max(live.createdHighWater, change.last_created_ms);
        tick();
        break;
      case "replace_state":
        loadState(live, change.state);
        break;
    }
  }
  // The planned copies may be behind the clock (they were made before the save): catch them up now.
  if (deploymentsChanged) tick();
}

/** A deployment's row made live: a new record object holding the same revisions. */
function putDeployment(live: Live, row: DeploymentRow): void {
  const id = row.deployment.id;
  const old = live.deploymentsById.get(id);
  const record: DeploymentRecord = { ...row, revisions: old ? old.revisions.slice() : [] };
  if (!old) {
    live.state.deployments.push(record);
    indexDeployment(live, record, live.state.deployments.length - 1);
    touch(live, record);
    return;
  }
  const position = live.positions.get(id)!;
  live.state.deployments[position.all] = record;
  live.deploymentsByTenant.get(old.deployment.tenant_id)![position.tenant] = record;
  live.deploymentsById.set(id, record);
  for (const r of record.revisions) indexRevision(live, record, r);
  touch(live, record);
}

/** One revision made live, in place of the one with its id or last; its deployment's row was put before it. */
function putRevision(live: Live, deploymentId: string, revision: RevisionRecord): void {
  const owner = live.deploymentsById.get(deploymentId);
  if (!owner) return;
  const id = revision.revision.id;
  const old = live.revisionsById.get(id);
  let i = -1;
  if (old && old.owner.deployment.id === deploymentId) {
    i = owner.revisions.lastIndexOf(old.record);
    live.moving.delete(old.record);
  }
  if (i >= 0) owner.revisions[i] = revision;
  else owner.revisions.push(revision);
  unmarkStepped(live, deploymentId, id);
  indexRevision(live, owner, revision);
  touch(live, owner);
}

function deleteRevision(live: Live, deploymentId: string, revisionId: string): void {
  const owner = live.deploymentsById.get(deploymentId);
  const old = live.revisionsById.get(revisionId);
  if (!owner || !old || old.owner !== owner) return;
  const i = owner.revisions.lastIndexOf(old.record);
  if (i >= 0) owner.revisions.splice(i, 1);
  live.revisionsById.delete(revisionId);
  live.moving.delete(old.record);
  unmarkStepped(live, deploymentId, revisionId);
  touch(live, owner);
}

function putListener(live: Live, listener: Listener): void {
  const hit = live.listenersById.get(listener.id);
  const position = hit ? hit.position : live.state.listeners.length;
  live.state.listeners[position] = listener;
  live.listenersById.set(listener.id, { listener, position });
}
