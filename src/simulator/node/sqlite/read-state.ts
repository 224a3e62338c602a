// Reading the state file at start: every row into the simulator's State, checked for what the
// simulator relies on to serve it (the schema's constraints hold only for rows SQLite was asked to
// check). A row that fails is named, with the file, in a StateFileError. What passes the checks is
// taken as the type the simulator wrote it as: the casts below say so, one per JSON column.
import { DEPLOYMENT_STATUSES, DEPLOYMENT_TYPES, REVISION_STATUSES } from "../../../../generated/constants.js";
import { isFailureStatus } from "../../core/lifecycle.js";
import type { DeploymentRecord, FailureStatus, Listener, RevisionRecord, State } from "../../core/model.js";
import type { Connection } from "./connection.js";
import { StateFileError } from "./errors.js";

type Bad = (what: string, why: string) => StateFileError;

/** Reads every row into a state. */
export function readState(db: Connection, file: string): State {
  const bad: Bad = (what, why) => new StateFileError(file, `${what} ${why}`);
  const meta = db.get("SELECT * FROM simulator WHERE id = 1");
  if (!meta) throw bad("the table simulator", "has no row (id 1)");
  const clock_offset_ms = finite(meta.clock_offset_ms, () => bad("simulator.clock_offset_ms", "is not a number"));
  const last_created_ms = finite(meta.last_created_ms, () => bad("simulator.last_created_ms", "is not a number"));
  const providers = parseJson(meta.providers, "simulator.providers", bad);
  const connections = parseJson(meta.connections, "simulator.connections", bad);
  const repositories = parseJson(meta.repositories, "simulator.repositories", bad);
  if (!Array.isArray(providers)) throw bad("simulator.providers", "is not a JSON array");
  if (!isObject(connections) || Object.values(connections).some((c) => !Array.isArray(c))) throw bad("simulator.connections", "is not an object of arrays");
  if (!isObject(repositories) || !isObject(repositories.scm) || !isObject(repositories.forge))
    throw bad("simulator.repositories", "has no scm and forge objects");
  const deployments = readDeployments(db, bad);
  readRevisions(db, new Map(deployments.map((d) => [d.deployment.id, d])), bad);
  return {
    format: "dms-simulator-state",
    version: 1,
    clock_offset_ms,
    last_created_ms,
    deployments,
    listeners: readListeners(db, bad),
    // Checked above for their shape; their items are as the simulator wrote them.
    providers: providers as State["providers"],
    connections: connections as State["connections"],
    repositories: repositories as State["repositories"],
  };
}

function readDeployments(db: Connection, bad: Bad): DeploymentRecord[] {
  const deployments: DeploymentRecord[] = [];
  const ids = new Set<string>();
  for (const row of db.all("SELECT * FROM deployments ORDER BY position")) {
    const id = text(row.id, () => bad("a row of deployments", "has an id that is not text"));
    const what = `deployment ${JSON.stringify(id)}`;
    const deployment = parseJson(row.deployment, what, bad);
    if (!isObject(deployment) || deployment.id !== id) throw bad(what, "is not a JSON object with its id");
    for (const key of ["name", "tenant_id", "status"] as const) if (typeof deployment[key] !== "string") throw bad(what, `has no ${key}`);
    if (!oneOf(DEPLOYMENT_STATUSES, deployment.status)) throw bad(what, `has an unknown status ${deployment.status}`);
    if (!isObject(deployment.source_revision_config)) throw bad(what, "has no source_revision_config object");
    const deployment_type = row.deployment_type;
    if (!oneOf(DEPLOYMENT_TYPES, deployment_type)) throw bad(what, "has an unknown deployment_type");
    const tags = parseJson(row.tag_value_ids, what, bad);
    if (!Array.isArray(tags) || tags.some((t) => typeof t !== "string")) throw bad(what, "has tag_value_ids that are not a JSON array of strings");
    const record: DeploymentRecord = {
      // Checked above for what the simulator reads of it; the rest is as the simulator wrote it.
      deployment: deployment as DeploymentRecord["deployment"],
      deployment_type,
      remote_reconciled: flag(row.remote_reconciled, () => bad(what, "has a remote_reconciled other than 0 or 1")),
      tag_value_ids: tags,
      revisions: [],
      fail_next: failure(row.fail_next, () => bad(what, "has an unknown fail_next")),
    };
    if (ids.has(id)) throw bad(what, "appears twice");
    ids.add(id);
    deployments.push(record);
  }
  return deployments;
}

/** Reads every revision into its deployment's list, oldest first. */
function readRevisions(db: Connection, byId: ReadonlyMap<string, DeploymentRecord>, bad: Bad): void {
  const ids = new Set<string>();
  for (const row of db.all("SELECT * FROM revisions ORDER BY position")) {
    const id = text(row.id, () => bad("a row of revisions", "has an id that is not text"));
    const what = `revision ${JSON.stringify(id)}`;
    const owner = typeof row.deployment_id === "string" ? byId.get(row.deployment_id) : undefined;
    if (!owner) throw bad(what, `belongs to no deployment (${JSON.stringify(row.deployment_id)})`);
    const revision = parseJson(row.revision, what, bad);
    if (!isObject(revision) || revision.id !== id) throw bad(what, "is not a JSON object with its id");
    if (!oneOf(REVISION_STATUSES, revision.status)) throw bad(what, `has an unknown status ${revision.status}`);
    for (const key of ["created_at", "updated_at"] as const) {
      const date = revision[key];
      if (typeof date !== "string" || Number.isNaN(Date.parse(date))) throw bad(what, `has no ${key} date`);
    }
    if (!isObject(revision.source_revision_config)) throw bad(what, "has no source_revision_config object");
    if (ids.has(id)) throw bad(what, "appears twice");
    ids.add(id);
    owner.revisions.push({
      // Checked above for what the lifecycle reads of it; the rest is as the simulator wrote it.
      revision: revision as RevisionRecord["revision"],
      remote_reconciled: flag(row.remote_reconciled, () => bad(what, "has a remote_reconciled other than 0 or 1")),
      step_at_ms: finite(row.step_at_ms, () => bad(what, "has a step_at_ms that is not a number")),
      fail_with: failure(row.fail_with, () => bad(what, "has an unknown fail_with")),
    });
  }
}

function readListeners(db: Connection, bad: Bad): Listener[] {
  const listeners: Listener[] = [];
  for (const row of db.all("SELECT id, listener FROM listeners ORDER BY position")) {
    const id = text(row.id, () => bad("a row of listeners", "has an id that is not text"));
    const what = `listener ${JSON.stringify(id)}`;
    const listener = parseJson(row.listener, what, bad);
    if (!isObject(listener) || listener.id !== id) throw bad(what, "is not a JSON object with its id");
    // A listener is only served back as it was saved: its id is all the simulator reads.
    listeners.push(listener as Listener);
  }
  return listeners;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function oneOf<T>(values: readonly T[], value: unknown): value is T {
  return values.some((v) => v === value);
}

function parseJson(value: unknown, what: string, bad: Bad): unknown {
  if (typeof value !== "string") throw bad(what, "is not JSON text");
  try {
    return JSON.parse(value);
  } catch {
    throw bad(what, "is not valid JSON");
  }
}

function text(value: unknown, fail: () => Error): string {
  if (typeof value !== "string") throw fail();
  return value;
}

function finite(value: unknown, fail: () => Error): number {
  if (typeof value !== "number" || !Number.isFinite(value)) throw fail();
  return value;
}

function flag(value: unknown, fail: () => Error): boolean {
  if (value !== 0 && value !== 1) throw fail();
  return value === 1;
}

function failure(value: unknown, fail: () => Error): FailureStatus | null {
  if (value === null) return null;
  if (!isFailureStatus(value)) throw fail();
  return value;
}
