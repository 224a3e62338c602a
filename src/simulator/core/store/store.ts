// The in-memory store: the state, its indexes and the simulated clock, behind one object. Every
// revision transition (creation, interruption, trimming, stepping, DEPLOYED's effects) is the
// lifecycle's (../lifecycle.ts); the store decides when, and keeps its indexes in step.
// Writes happen in two halves so that persistence can sit between them: a `plan...` method computes
// the StateChanges of a write without touching the live state (plan.ts), and `apply` makes them live
// (apply.ts). Routes call the store; the store calls the lifecycle; nothing calls back. It holds data
// only: serialized answers are cached by the response layer, keyed by the versions the store keeps.
import type { StateChange } from "../changes.js";
import type { DeploymentPatch, DeploymentRecord, FailureStatus, Listener, ListenerPatch, RevisionRecord, State } from "../model.js";
import { applyChanges } from "./apply.js";
import { type DeploymentFilter, deploymentMatcher, type RevisionFilter, revisionMatcher } from "./filters.js";
import { createLive, loadState } from "./indexes.js";
import type { Live } from "./live.js";
import { type Page, pageNewestFirst } from "./paging.js";
import { advanceChange, deploymentPatchPlan, failNextPlan, listenerPatchPlan, type Plan } from "./plan.js";
import { simulatedNow, stepDueRevisions } from "./time.js";

export class Store {
  private readonly live: Live;

  constructor(
    state: State,
    stepMs: number,
    private readonly clock: () => number,
  ) {
    this.live = createLive(state, stepMs);
  }

  /** Makes `state` the live state, indexing it. */
  load(state: State): void {
    loadState(this.live, state);
  }

  /** The live state, for persistence (compaction) and tests. */
  snapshot(): State {
    const { state } = this.live;
    state.last_created_ms = Math.max(state.last_created_ms, this.live.createdHighWater);
    return state;
  }

  /** The simulated time (time.ts): never behind the newest created_at. */
  now(): number {
    return simulatedNow(this.live, this.clock);
  }

  /** Version of everything a deployment list shows. */
  get version(): number {
    return this.live.changeCount;
  }

  versionOf(record: DeploymentRecord): number {
    return this.live.deploymentVersions.get(record.deployment.id) ?? this.live.loadedAt;
  }

  /** Moves every revision that is due. */
  tick(): void {
    stepDueRevisions(this.live, this.clock);
  }

  /** Makes saved changes live. Runs synchronously once persistence has them. */
  apply(changes: readonly StateChange[]): void {
    applyChanges(this.live, changes, () => this.tick());
  }

  // --- deployments -------------------------------------------------------------------------

  getDeployment(id: string, tenant: string | undefined): DeploymentRecord | undefined {
    const record = this.live.deploymentsById.get(id);
    if (!record || (tenant !== undefined && record.deployment.tenant_id !== tenant)) return undefined;
    return record;
  }

  listDeployments(tenant: string | undefined, filter: DeploymentFilter, offset: number, limit: number): Page<DeploymentRecord> {
    const all = tenant === undefined ? this.live.state.deployments : (this.live.deploymentsByTenant.get(tenant) ?? []);
    return pageNewestFirst(all, deploymentMatcher(filter), offset, limit);
  }

  /** The changes of a PATCH of a deployment; `result` is the deployment as it will be. */
  planDeploymentPatch(record: DeploymentRecord, patch: DeploymentPatch): Plan<DeploymentRecord> {
    return deploymentPatchPlan(this.live, this.now(), record, patch);
  }

  /** The changes that make the next revision of a deployment end in `status`. */
  planFailNext(record: DeploymentRecord, status: FailureStatus): Plan<DeploymentRecord> {
    return failNextPlan(this.live, record, status);
  }

  // --- revisions ---------------------------------------------------------------------------

  getRevision(owner: DeploymentRecord, revisionId: string): RevisionRecord | undefined {
    const hit = this.live.revisionsById.get(revisionId);
    return hit && hit.owner === owner ? hit.record : undefined;
  }

  listRevisions(owner: DeploymentRecord, filter: RevisionFilter, offset: number, limit: number): Page<RevisionRecord> {
    return pageNewestFirst(owner.revisions, revisionMatcher(filter), offset, limit);
  }

  // --- listeners, providers, connections, repositories --------------------------------------

  listListeners(offset: number, limit: number): Page<Listener> {
    const byAge = [...this.live.state.listeners].sort((a, b) => (a.created_at ?? "").localeCompare(b.created_at ?? ""));
    return pageNewestFirst(byAge, undefined, offset, limit);
  }

  getListener(id: string): Listener | undefined {
    return this.live.listenersById.get(id)?.listener;
  }

  planListenerPatch(listener: Listener, patch: ListenerPatch): Plan<Listener> {
    return listenerPatchPlan(this.now(), listener, patch);
  }

  providers() {
    return this.live.state.providers;
  }

  connections(agentId: string) {
    const { connections } = this.live.state;
    return Object.hasOwn(connections, agentId) ? connections[agentId] : undefined;
  }

  repositories(kind: "scm" | "forge", integrationId: string) {
    const byIntegration = this.live.state.repositories[kind];
    return Object.hasOwn(byIntegration, integrationId) ? byIntegration[integrationId] : undefined;
  }

  // --- the clock -----------------------------------------------------------------------------

  /** The change that moves the simulated clock `seconds` ahead. */
  planAdvance(seconds: number): StateChange {
    return advanceChange(this.live, seconds);
  }
}
