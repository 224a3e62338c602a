// The store's indexes: built whole when a state is loaded (at start, reset, restore), and kept in
// step one deployment or revision at a time as writes are applied (apply.ts).
import { isInProgress } from "../lifecycle.js";
import type { DeploymentRecord, RevisionRecord, State } from "../model.js";
import type { Live } from "./live.js";

/** A live record of `state`, indexed. */
export function createLive(state: State, stepMs: number): Live {
  const live: Live = {
    state,
    stepMs,
    deploymentsById: new Map(),
    positions: new Map(),
    deploymentsByTenant: new Map(),
    revisionsById: new Map(),
    listenersById: new Map(),
    moving: new Map(),
    nextDueMs: Infinity,
    createdHighWater: 0,
    deploymentVersions: new Map(),
    loadedAt: 0,
    changeCount: 0,
    stepped: new Map(),
  };
  loadState(live, state);
  return live;
}

/** Makes `state` the live state, indexing it. */
export function loadState(live: Live, state: State): void {
  live.state = state;
  live.changeCount++;
  live.deploymentsById.clear();
  live.positions.clear();
  live.deploymentsByTenant.clear();
  live.revisionsById.clear();
  live.listenersById.clear();
  live.moving.clear();
  live.deploymentVersions.clear();
  live.stepped.clear();
  live.loadedAt = live.changeCount;
  live.nextDueMs = Infinity;
  let highWater = state.last_created_ms;
  state.deployments.forEach((record, i) => {
    indexDeployment(live, record, i);
    const newest = record.revisions.at(-1);
    if (newest) highWater = Math.max(highWater, Date.parse(newest.revision.created_at));
  });
  live.createdHighWater = highWater;
  for (const [position, listener] of state.listeners.entries()) live.listenersById.set(listener.id, { listener, position });
}

/** A deployment at `position` of state.deployments, with its revisions. */
export function indexDeployment(live: Live, record: DeploymentRecord, position: number): void {
  live.deploymentsById.set(record.deployment.id, record);
  const tenant = record.deployment.tenant_id;
  const list = live.deploymentsByTenant.get(tenant) ?? [];
  live.deploymentsByTenant.set(tenant, list);
  live.positions.set(record.deployment.id, { all: position, tenant: list.length });
  list.push(record);
  for (const revision of record.revisions) indexRevision(live, record, revision);
}

/** A revision by its id; one still in progress also joins the moving ones. */
export function indexRevision(live: Live, owner: DeploymentRecord, record: RevisionRecord): void {
  live.revisionsById.set(record.revision.id, { owner, record });
  if (isInProgress(record.revision.status)) {
    live.moving.set(record, owner);
    live.nextDueMs = Math.min(live.nextDueMs, record.step_at_ms + live.stepMs);
  }
}
