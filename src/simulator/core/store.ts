// The in-memory store: the state, its indexes and the simulated clock. Every revision transition
// (creation, interruption, trimming, stepping, DEPLOYED's effects) is the lifecycle's
// (lifecycle.ts); the store decides when, and keeps its indexes in step.
// Writes happen in two halves so that persistence can sit between them: a `plan...` method computes
// the StateChanges of a write without touching the live state, and `apply` makes them live. Routes
// call the store; the store calls the lifecycle; nothing calls back. It holds data only: serialized
// answers are cached by the response layer, keyed by the versions the store keeps.
import { createsRevision } from "../../shared/revision-rules.js";
import { boundedTime, isoTime } from "./clock.js";
import { type DeploymentRow, deploymentRow, type StateChange } from "./changes.js";
import { createRevision, isInProgress, stepRevision } from "./lifecycle.js";
import type {
  DeploymentPatch,
  DeploymentRecord,
  DeploymentStatus,
  DeploymentType,
  FailureStatus,
  Listener,
  ListenerPatch,
  RevisionRecord,
  RevisionStatus,
  State,
} from "./model.js";

export interface DeploymentFilter {
  name_contains?: string;
  status?: DeploymentStatus;
  remote_reconciled?: boolean;
  tag_value_ids?: string[];
  image_version?: string;
  deployment_type?: DeploymentType;
  deployment_ids?: string[];
}

export interface RevisionFilter {
  status?: RevisionStatus[];
  remote_reconciled?: boolean;
}

export interface Page<T> {
  items: T[];
  offset: number;
}

/** The changes of one write, and what the write answers with once they are applied. */
export interface Plan<T> {
  changes: StateChange[];
  result: T;
}

const iso = isoTime;

export class Store {
  private state!: State;
  private deploymentsById = new Map<string, DeploymentRecord>();
  /** Position of each deployment in state.deployments and in its tenant's list (neither order ever changes). */
  private positions = new Map<string, { all: number; tenant: number }>();
  private deploymentsByTenant = new Map<string, DeploymentRecord[]>();
  private revisionsById = new Map<string, { owner: DeploymentRecord; record: RevisionRecord }>();
  private listenersById = new Map<string, { listener: Listener; position: number }>();
  /** Revisions that are still moving, with their deployment; only these are looked at on each request. */
  private moving = new Map<RevisionRecord, DeploymentRecord>();
  /** The earliest simulated time any moving revision is due to step; until then tick() is free. */
  private nextDueMs = Infinity;
  /** The newest created_at handed out (ms), also to writes still being saved: created_at stays strictly increasing. */
  private createdHighWater = 0;
  /** Per deployment id: the changeCount of its last change (absent: unchanged since the last load). */
  private deploymentVersions = new Map<string, number>();
  /** The changeCount at the last load: the version of every deployment not changed since. */
  private loadedAt = 0;
  /** Moves whenever any deployment changes (list answers depend on all of them). */
  private changeCount = 0;
  /** Per deployment id: revisions the clock moved since they were last saved; its next write saves them too (with the deployment row the steps changed). */
  private stepped = new Map<string, Set<string>>();

  constructor(
    state: State,
    private readonly stepMs: number,
    private readonly clock: () => number,
  ) {
    this.load(state);
  }

  /** Makes `state` the live state, indexing it. */
  load(state: State): void {
    this.state = state;
    this.changeCount++;
    this.deploymentsById.clear();
    this.positions.clear();
    this.deploymentsByTenant.clear();
    this.revisionsById.clear();
    this.listenersById.clear();
    this.moving.clear();
    this.deploymentVersions.clear();
    this.stepped.clear();
    this.loadedAt = this.changeCount;
    this.nextDueMs = Infinity;
    let highWater = state.last_created_ms;
    state.deployments.forEach((record, i) => {
      this.index(record, i);
      const newest = record.revisions.at(-1);
      if (newest) highWater = Math.max(highWater, Date.parse(newest.revision.created_at));
    });
    this.createdHighWater = highWater;
    for (const [position, listener] of state.listeners.entries()) this.listenersById.set(listener.id, { listener, position });
  }

  /** The live state, for persistence (compaction) and tests. */
  snapshot(): State {
    this.state.last_created_ms = Math.max(this.state.last_created_ms, this.createdHighWater);
    return this.state;
  }

  /**
   * The simulated time (src/simulator/core/clock.ts): the clock plus the offset, bounded, and never
   * behind the newest created_at. A clock that reads earlier (a clock set before the seed, fake
   * timers moved back) raises the offset instead, so time goes on from there and nothing stalls.
   */
  now(): number {
    const t = boundedTime(this.clock(), this.state.clock_offset_ms);
    if (!(t < this.createdHighWater)) return t;
    this.state.clock_offset_ms += this.createdHighWater - t;
    return this.createdHighWater;
  }

  /** Version of everything a deployment list shows. */
  get version(): number {
    return this.changeCount;
  }

  versionOf(record: DeploymentRecord): number {
    return this.deploymentVersions.get(record.deployment.id) ?? this.loadedAt;
  }

  /** Moves every revision that is due (in place: the clock's steps are not saved, they follow from the clock). */
  tick(): void {
    const now = this.now();
    if (now < this.nextDueMs) return;
    let nextDue = Infinity;
    for (const [record, owner] of this.moving) {
      if (stepRevision(owner, record, now, this.stepMs)) {
        this.touch(owner);
        this.markStepped(owner.deployment.id, record.revision.id);
        if (!isInProgress(record.revision.status)) {
          this.moving.delete(record);
          continue;
        }
      }
      nextDue = Math.min(nextDue, record.step_at_ms + this.stepMs);
    }
    this.nextDueMs = nextDue;
  }

  /** Makes saved changes live. Runs synchronously once persistence has them. */
  apply(changes: readonly StateChange[]): void {
    let deploymentsChanged = false;
    for (const change of changes) {
      switch (change.op) {
        case "put_deployment":
          this.putDeployment(change.row);
          deploymentsChanged = true;
          break;
        case "put_revision":
          this.putRevision(change.deployment_id, change.record);
          deploymentsChanged = true;
          break;
        case "delete_revision":
          this.deleteRevision(change.deployment_id, change.revision_id);
          deploymentsChanged = true;
          break;
        case "put_listener":
          this.putListener(change.listener);
          break;
        case "set_clock":
          this.state.clock_offset_ms = change.clock_offset_ms;
          this.state.last_created_ms = change.last_created_ms;
          this.createdHighWater = Math.max(this.createdHighWater, change.last_created_ms);
          this.tick();
          break;
        case "replace_state":
          this.load(change.state);
          break;
      }
    }
    // The planned copies may be behind the clock (they were made before the save): catch them up now.
    if (deploymentsChanged) this.tick();
  }

  // --- deployments -------------------------------------------------------------------------

  getDeployment(id: string, tenant: string | undefined): DeploymentRecord | undefined {
    const record = this.deploymentsById.get(id);
    if (!record || (tenant !== undefined && record.deployment.tenant_id !== tenant)) return undefined;
    return record;
  }

  listDeployments(tenant: string | undefined, filter: DeploymentFilter, offset: number, limit: number): Page<DeploymentRecord> {
    const all = tenant === undefined ? this.state.deployments : (this.deploymentsByTenant.get(tenant) ?? []);
    return pageNewestFirst(all, deploymentMatcher(filter), offset, limit);
  }

  /** The changes of a PATCH of a deployment; `result` is the deployment as it will be. */
  planDeploymentPatch(record: DeploymentRecord, patch: DeploymentPatch): Plan<DeploymentRecord> {
    const now = this.now();
    const next = copyForWrite(record);
    const d = next.deployment;
    if (patch.source_config) d.source_config = { ...d.source_config, ...patch.source_config };
    if (patch.secrets != null) d.secrets = patch.secrets;
    if (patch.secret_references != null) d.secret_references = patch.secret_references;
    // created_at is handed out now, even if the write is never saved: a gap is harmless, a repeat is not.
    const revisionChanges = createsRevision(patch) ? createRevision(next, patch, now, this.nextCreatedMs(now)) : [];
    d.updated_at = iso(now);
    return { changes: this.deploymentChanges(next, revisionChanges), result: next };
  }

  /** The changes that make the next revision of a deployment end in `status`. */
  planFailNext(record: DeploymentRecord, status: FailureStatus): Plan<DeploymentRecord> {
    const next = copyForWrite(record);
    next.fail_next = status;
    return { changes: this.deploymentChanges(next, []), result: next };
  }

  /**
   * The changes that save a planned deployment: its row, then the revisions the clock moved since
   * they were last saved (the row holds what those steps changed), then `revisionChanges`.
   */
  private deploymentChanges(next: DeploymentRecord, revisionChanges: StateChange[]): StateChange[] {
    const id = next.deployment.id;
    const changes: StateChange[] = [{ op: "put_deployment", row: deploymentRow(next) }];
    const moved = this.stepped.get(id);
    if (moved) {
      const planned = new Set(revisionChanges.map((c) => (c.op === "put_revision" ? c.record.revision.id : c.op === "delete_revision" ? c.revision_id : "")));
      for (const revisionId of moved) {
        const live = this.revisionsById.get(revisionId)?.record;
        if (live && !planned.has(revisionId)) changes.push({ op: "put_revision", deployment_id: id, record: { ...live, revision: { ...live.revision } } });
      }
    }
    changes.push(...revisionChanges);
    return changes;
  }

  private markStepped(deploymentId: string, revisionId: string): void {
    const moved = this.stepped.get(deploymentId);
    if (moved) moved.add(revisionId);
    else this.stepped.set(deploymentId, new Set([revisionId]));
  }

  private unmarkStepped(deploymentId: string, revisionId: string): void {
    const moved = this.stepped.get(deploymentId);
    if (moved?.delete(revisionId) && moved.size === 0) this.stepped.delete(deploymentId);
  }

  /** The next created_at: strictly after every one handed out, and not before `now`. */
  private nextCreatedMs(now: number): number {
    this.createdHighWater = Math.max(now, this.createdHighWater + 1);
    return this.createdHighWater;
  }

  /** A deployment's row made live: a new record object (the old one may still be in an answer being written) holding the same revisions. */
  private putDeployment(row: DeploymentRow): void {
    const id = row.deployment.id;
    const old = this.deploymentsById.get(id);
    const record: DeploymentRecord = { ...row, revisions: old ? old.revisions.slice() : [] };
    if (!old) {
      this.state.deployments.push(record);
      this.index(record, this.state.deployments.length - 1);
      this.touch(record);
      return;
    }
    const position = this.positions.get(id)!;
    this.state.deployments[position.all] = record;
    this.deploymentsByTenant.get(old.deployment.tenant_id)![position.tenant] = record;
    this.deploymentsById.set(id, record);
    for (const r of record.revisions) this.indexRevision(record, r);
    this.touch(record);
  }

  /** One revision made live, in place of the one with its id or last; its deployment's row was put before it. */
  private putRevision(deploymentId: string, revision: RevisionRecord): void {
    const owner = this.deploymentsById.get(deploymentId);
    if (!owner) return;
    const id = revision.revision.id;
    const old = this.revisionsById.get(id);
    let i = -1;
    if (old && old.owner.deployment.id === deploymentId) {
      i = owner.revisions.lastIndexOf(old.record);
      this.moving.delete(old.record);
    }
    if (i >= 0) owner.revisions[i] = revision;
    else owner.revisions.push(revision);
    this.unmarkStepped(deploymentId, id);
    this.indexRevision(owner, revision);
    this.touch(owner);
  }

  private deleteRevision(deploymentId: string, revisionId: string): void {
    const owner = this.deploymentsById.get(deploymentId);
    const old = this.revisionsById.get(revisionId);
    if (!owner || !old || old.owner !== owner) return;
    const i = owner.revisions.lastIndexOf(old.record);
    if (i >= 0) owner.revisions.splice(i, 1);
    this.revisionsById.delete(revisionId);
    this.moving.delete(old.record);
    this.unmarkStepped(deploymentId, revisionId);
    this.touch(owner);
  }

  private touch(record: DeploymentRecord): void {
    this.deploymentVersions.set(record.deployment.id, ++this.changeCount);
  }

  // --- revisions ---------------------------------------------------------------------------

  getRevision(owner: DeploymentRecord, revisionId: string): RevisionRecord | undefined {
    const hit = this.revisionsById.get(revisionId);
    return hit && hit.owner === owner ? hit.record : undefined;
  }

  listRevisions(owner: DeploymentRecord, filter: RevisionFilter, offset: number, limit: number): Page<RevisionRecord> {
    const statuses = filter.status && new Set(filter.status);
    const matches = (r: RevisionRecord) =>
      (!statuses || statuses.has(r.revision.status)) && (filter.remote_reconciled === undefined || r.remote_reconciled === filter.remote_reconciled);
    return pageNewestFirst(owner.revisions, matches, offset, limit);
  }

  // --- listeners, providers, connections, repositories --------------------------------------

  listListeners(offset: number, limit: number): Page<Listener> {
    const byAge = [...this.state.listeners].sort((a, b) => (a.created_at ?? "").localeCompare(b.created_at ?? ""));
    return pageNewestFirst(byAge, undefined, offset, limit);
  }

  getListener(id: string): Listener | undefined {
    return this.listenersById.get(id)?.listener;
  }

  planListenerPatch(listener: Listener, patch: ListenerPatch): Plan<Listener> {
    const next: Listener = { ...listener, updated_at: iso(this.now()) };
    if (patch.version !== undefined) next.version = patch.version;
    if (patch.compute_config !== undefined) next.compute_config = patch.compute_config;
    return { changes: [{ op: "put_listener", listener: next }], result: next };
  }

  private putListener(listener: Listener): void {
    const hit = this.listenersById.get(listener.id);
    const position = hit ? hit.position : this.state.listeners.length;
    this.state.listeners[position] = listener;
    this.listenersById.set(listener.id, { listener, position });
  }

  providers() {
    return this.state.providers;
  }

  connections(agentId: string) {
    return Object.hasOwn(this.state.connections, agentId) ? this.state.connections[agentId] : undefined;
  }

  repositories(kind: "scm" | "forge", integrationId: string) {
    const byIntegration = this.state.repositories[kind];
    return Object.hasOwn(byIntegration, integrationId) ? byIntegration[integrationId] : undefined;
  }

  // --- the clock -----------------------------------------------------------------------------

  /** The change that moves the simulated clock `seconds` ahead. */
  planAdvance(seconds: number): StateChange {
    return {
      op: "set_clock",
      clock_offset_ms: this.state.clock_offset_ms + Math.round(seconds * 1000),
      last_created_ms: Math.max(this.state.last_created_ms, this.createdHighWater),
    };
  }

  // --- indexes -----------------------------------------------------------------------------

  private index(record: DeploymentRecord, position: number): void {
    this.deploymentsById.set(record.deployment.id, record);
    const tenant = record.deployment.tenant_id;
    const list = this.deploymentsByTenant.get(tenant) ?? [];
    this.deploymentsByTenant.set(tenant, list);
    this.positions.set(record.deployment.id, { all: position, tenant: list.length });
    list.push(record);
    for (const revision of record.revisions) this.indexRevision(record, revision);
  }

  private indexRevision(owner: DeploymentRecord, record: RevisionRecord): void {
    this.revisionsById.set(record.revision.id, { owner, record });
    if (isInProgress(record.revision.status)) {
      this.moving.set(record, owner);
      this.nextDueMs = Math.min(this.nextDueMs, record.step_at_ms + this.stepMs);
    }
  }
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

function deploymentMatcher(filter: DeploymentFilter): ((r: DeploymentRecord) => boolean) | undefined {
  const tests: ((r: DeploymentRecord) => boolean)[] = [];
  if (filter.name_contains !== undefined) {
    const needle = filter.name_contains.toLowerCase();
    tests.push((r) => r.deployment.name.toLowerCase().includes(needle));
  }
  if (filter.status !== undefined) tests.push((r) => r.deployment.status === filter.status);
  if (filter.remote_reconciled !== undefined) tests.push((r) => r.remote_reconciled === filter.remote_reconciled);
  if (filter.tag_value_ids !== undefined) {
    const wanted = filter.tag_value_ids;
    tests.push((r) => wanted.some((t) => r.tag_value_ids.includes(t)));
  }
  if (filter.image_version !== undefined) tests.push((r) => r.deployment.image_version === filter.image_version);
  if (filter.deployment_type !== undefined) tests.push((r) => r.deployment_type === filter.deployment_type);
  if (filter.deployment_ids !== undefined) {
    const ids = new Set(filter.deployment_ids);
    tests.push((r) => ids.has(r.deployment.id));
  }
  if (tests.length === 0) return undefined;
  return (r) => tests.every((t) => t(r));
}

/** Items are stored oldest first; a page walks them newest first. */
function pageNewestFirst<T>(items: readonly T[], matches: ((item: T) => boolean) | undefined, offset: number, limit: number): Page<T> {
  const out: T[] = [];
  if (!matches) {
    for (let i = items.length - 1 - offset; i >= 0 && out.length < limit; i--) out.push(items[i]!);
    return { items: out, offset: offset + out.length };
  }
  let skipped = 0;
  for (let i = items.length - 1; i >= 0 && out.length < limit; i--) {
    const item = items[i]!;
    if (!matches(item)) continue;
    if (skipped < offset) skipped++;
    else out.push(item);
  }
  return { items: out, offset: offset + out.length };
}
