// The in-memory store: owns the state, its indexes, the simulated clock and the serialized-JSON
// cache of deployments. Routes call it; it calls the lifecycle; nothing calls back.
import { randomUUID } from "node:crypto";
import { advanceRevision, interruptRevision, isInProgress } from "./lifecycle.js";
import type {
  Deployment,
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
import { fakeCommitSha } from "./seed.js";

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

const iso = (ms: number) => new Date(ms).toISOString();

export class Store {
  private state!: State;
  private deploymentsById = new Map<string, DeploymentRecord>();
  private deploymentsByTenant = new Map<string, DeploymentRecord[]>();
  private revisionsById = new Map<string, { owner: DeploymentRecord; record: RevisionRecord }>();
  private listenersById = new Map<string, Listener>();
  /** Revisions that are still moving; only these are looked at on each request. */
  private moving = new Set<RevisionRecord>();
  /** The earliest simulated time any moving revision is due to step; until then tick() is free. */
  private nextDueMs = Infinity;
  private json = new Map<string, string>();
  /** Deployment list answers by query, valid while `version` is unchanged (clients poll lists). */
  private pages = new Map<string, { version: number; body: Buffer }>();
  /** Counts changes to deployments; a cached list page is stale once it moves. */
  private version = 0;

  constructor(
    state: State,
    private readonly stepMs: number,
  ) {
    this.load(state);
  }

  load(state: State): void {
    this.state = state;
    this.version++;
    this.pages.clear();
    this.deploymentsById.clear();
    this.deploymentsByTenant.clear();
    this.revisionsById.clear();
    this.listenersById.clear();
    this.moving.clear();
    this.nextDueMs = Infinity;
    this.json.clear();
    for (const record of state.deployments) this.index(record);
    for (const listener of state.listeners) this.listenersById.set(listener.id, listener);
  }

  snapshot(): State {
    return this.state;
  }

  now(): number {
    return Date.now() + this.state.clock_offset_ms;
  }

  advanceClock(seconds: number): number {
    this.state.clock_offset_ms += Math.round(seconds * 1000);
    this.tick();
    return this.now();
  }

  /** Moves every revision that is due; called before each answer. */
  tick(): void {
    const now = this.now();
    if (now < this.nextDueMs) return;
    let nextDue = Infinity;
    for (const record of this.moving) {
      if (advanceRevision(record, now, this.stepMs)) {
        const owner = this.revisionsById.get(record.revision.id)!.owner;
        this.json.delete(owner.deployment.id);
        this.version++;
        if (record.revision.status === "DEPLOYED") this.onDeployed(owner, record);
        if (!isInProgress(record.revision.status)) {
          this.moving.delete(record);
          continue;
        }
      }
      nextDue = Math.min(nextDue, record.step_at_ms + this.stepMs);
    }
    this.nextDueMs = nextDue;
  }

  // --- deployments -------------------------------------------------------------------------

  getDeployment(id: string, tenant: string | undefined): DeploymentRecord | undefined {
    const record = this.deploymentsById.get(id);
    if (!record || (tenant !== undefined && record.deployment.tenant_id !== tenant)) return undefined;
    return record;
  }

  /** The deployment as JSON text, cached until it changes (lists of 10,000 stay cheap). */
  deploymentJson(record: DeploymentRecord): string {
    let text = this.json.get(record.deployment.id);
    if (text === undefined) {
      text = JSON.stringify(record.deployment);
      this.json.set(record.deployment.id, text);
    }
    return text;
  }

  /** The JSON answer of a deployment list, built once per query and store version. */
  deploymentPageJson(key: string, build: () => string): Buffer {
    const hit = this.pages.get(key);
    if (hit && hit.version === this.version) return hit.body;
    // Bounded: many distinct queries (an id filter per request) must not grow memory without end.
    if (this.pages.size >= 1000) this.pages.clear();
    const body = Buffer.from(build());
    this.pages.set(key, { version: this.version, body });
    return body;
  }

  listDeployments(tenant: string | undefined, filter: DeploymentFilter, offset: number, limit: number): Page<DeploymentRecord> {
    const all = tenant === undefined ? this.state.deployments : (this.deploymentsByTenant.get(tenant) ?? []);
    const matches = deploymentMatcher(filter);
    return pageNewestFirst(all, matches, offset, limit);
  }

  patchDeployment(record: DeploymentRecord, patch: DeploymentPatch): void {
    const now = this.now();
    const d = record.deployment;
    if (patch.source_config) d.source_config = { ...d.source_config, ...patch.source_config };
    if (patch.secrets != null) d.secrets = patch.secrets;
    if (patch.secret_references != null) d.secret_references = patch.secret_references;
    const createsRevision =
      patch.source_revision_config != null || patch.secrets != null || patch.secret_references != null || patch.revision_source != null;
    if (createsRevision) this.createRevision(record, patch, now);
    d.updated_at = iso(now);
    this.json.delete(d.id);
    this.version++;
  }

  private createRevision(record: DeploymentRecord, patch: DeploymentPatch, now: number): void {
    const d = record.deployment;
    for (const older of record.revisions) {
      if (interruptRevision(older, now)) this.moving.delete(older);
    }
    const { repo_commit_sha: _previousSha, ...current } = d.source_revision_config;
    const config: Deployment["source_revision_config"] = { ...current, ...(patch.source_revision_config ?? {}) };
    const source = patch.revision_source ?? d.source;
    const id = randomUUID();
    if (source === "scm_host" && config.repo_ref) config.repo_commit_sha = fakeCommitSha(`${id}:${config.repo_ref}`);
    const created = this.nextCreatedMs(now);
    const revision: RevisionRecord = {
      revision: {
        id,
        created_at: iso(created),
        updated_at: iso(created),
        status: "CREATING",
        source,
        source_revision_config: config,
      },
      remote_reconciled: record.remote_reconciled,
      step_at_ms: created,
      fail_with: record.fail_next,
    };
    record.fail_next = null;
    record.revisions.push(revision);
    this.indexRevision(record, revision);
    d.source_revision_config = config;
    d.latest_revision_id = id;
  }

  failNext(record: DeploymentRecord, status: FailureStatus): void {
    record.fail_next = status;
  }

  private onDeployed(owner: DeploymentRecord, record: RevisionRecord): void {
    const d = owner.deployment;
    d.active_revision_id = record.revision.id;
    if (d.status === "AWAITING_DATABASE") d.status = "READY";
    d.updated_at = record.revision.updated_at;
  }

  // --- revisions ---------------------------------------------------------------------------

  getRevision(owner: DeploymentRecord, revisionId: string): RevisionRecord | undefined {
    const hit = this.revisionsById.get(revisionId);
    return hit && hit.owner === owner ? hit.record : undefined;
  }

  listRevisions(owner: DeploymentRecord, filter: RevisionFilter, offset: number, limit: number): Page<RevisionRecord> {
    const statuses = filter.status && new Set(filter.status);
    const matches = (r: RevisionRecord) =>
      (!statuses || statuses.has(r.revision.status)) &&
      (filter.remote_reconciled === undefined || r.remote_reconciled === filter.remote_reconciled);
    return pageNewestFirst(owner.revisions, matches, offset, limit);
  }

  // --- listeners, providers, connections, repositories --------------------------------------

  listListeners(offset: number, limit: number): Page<Listener> {
    const byAge = [...this.state.listeners].sort((a, b) => (a.created_at ?? "").localeCompare(b.created_at ?? ""));
    return pageNewestFirst(byAge, () => true, offset, limit);
  }

  getListener(id: string): Listener | undefined {
    return this.listenersById.get(id);
  }

  patchListener(listener: Listener, patch: ListenerPatch): void {
    if (patch.version !== undefined) listener.version = patch.version;
    if (patch.compute_config !== undefined) listener.compute_config = patch.compute_config;
    listener.updated_at = iso(this.now());
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

  // --- indexes -----------------------------------------------------------------------------

  private index(record: DeploymentRecord): void {
    this.deploymentsById.set(record.deployment.id, record);
    const tenant = record.deployment.tenant_id;
    let list = this.deploymentsByTenant.get(tenant);
    if (!list) this.deploymentsByTenant.set(tenant, (list = []));
    list.push(record);
    for (const revision of record.revisions) this.indexRevision(record, revision);
  }

  private indexRevision(owner: DeploymentRecord, record: RevisionRecord): void {
    this.revisionsById.set(record.revision.id, { owner, record });
    if (isInProgress(record.revision.status)) {
      this.moving.add(record);
      this.nextDueMs = Math.min(this.nextDueMs, record.step_at_ms + this.stepMs);
    }
  }

  private nextCreatedMs(now: number): number {
    const created = Math.max(now, this.state.last_created_ms + 1);
    this.state.last_created_ms = created;
    return created;
  }
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
