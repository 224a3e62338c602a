// What the store keeps beside the state: its indexes, the revisions still moving, the versions the
// response cache is keyed by, the created_at high-water mark, and the revisions the clock moved
// since they were last saved. One record, shared by the store's functions (indexes.ts, time.ts,
// plan.ts, apply.ts) and held by the Store (store.ts), which alone is seen from outside.
import type { DeploymentRecord, Listener, RevisionRecord, State } from "../model.js";

export interface Live {
  state: State;
  /** Simulated milliseconds between two steps of a revision. */
  readonly stepMs: number;
  readonly deploymentsById: Map<string, DeploymentRecord>;
  /** Position of each deployment in state.deployments and in its tenant's list (neither order ever changes). */
  readonly positions: Map<string, { all: number; tenant: number }>;
  readonly deploymentsByTenant: Map<string, DeploymentRecord[]>;
  readonly revisionsById: Map<string, { owner: DeploymentRecord; record: RevisionRecord }>;
  readonly listenersById: Map<string, { listener: Listener; position: number }>;
  /** Revisions that are still moving, with their deployment; only these are looked at on each request. */
  readonly moving: Map<RevisionRecord, DeploymentRecord>;
  /** The earliest simulated time any moving revision is due to step; until then tick() is free. */
  nextDueMs: number;
  /** The newest created_at handed out (ms), also to writes still being saved: created_at stays strictly increasing. */
  createdHighWater: number;
  /** Per deployment id: the changeCount of its last change (absent: unchanged since the last load). */
  readonly deploymentVersions: Map<string, number>;
  /** The changeCount at the last load: the version of every deployment not changed since. */
  loadedAt: number;
  /** Moves whenever any deployment changes (list answers depend on all of them). */
  changeCount: number;
  /** Per deployment id: revisions the clock moved since they were last saved; its next write saves them too (with the deployment row the steps changed). */
  readonly stepped: Map<string, Set<string>>;
}

/** A deployment changed: it, and every list, gets a new version. */
export function touch(live: Live, record: DeploymentRecord): void {
  live.deploymentVersions.set(record.deployment.id, ++live.changeCount);
}

export function markStepped(live: Live, deploymentId: string, revisionId: string): void {
  const moved = live.stepped.get(deploymentId);
  if (moved) moved.add(revisionId);
  else live.stepped.set(deploymentId, new Set([revisionId]));
}

export function unmarkStepped(live: Live, deploymentId: string, revisionId: string): void {
  const moved = live.stepped.get(deploymentId);
  if (moved?.delete(revisionId) && moved.size === 0) live.stepped.delete(deploymentId);
}
