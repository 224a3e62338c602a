// The simulator's state on disk (`--state FILE`): a SQLite database through Node's built-in
// node:sqlite, as an adapter of the core's Persistence. One row per deployment, revision and
// listener and one for the clock; each append is a savepoint inside a transaction that commits, with
// every append that arrived meanwhile, in one fsync'd WAL commit (synchronous=FULL). The connection
// holds the file in exclusive locking mode from start to close, so SQLite itself refuses a second
// simulator (or any other program) on the same file. SQLite writes the file in place: its mode, its
// owner and a symlink to it stay as they are; a file this module creates is 0600 (it holds secret
// values in clear), and SQLite gives its -wal file the same mode. The connection lives in a worker
// thread, so a commit's fsync never holds the event loop (see SqliteWorker).
//
// node:sqlite is loaded lazily, at load(), so the rest of the package runs on a Node without it.
import { closeSync, constants, readSync } from "node:fs";
import { createRequire } from "node:module";
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from "node:worker_threads";
import { DEPLOYMENT_STATUSES, DEPLOYMENT_TYPES, REVISION_STATUSES } from "../../../generated/constants.js";
import { StorageError, type Persistence, type StateChange } from "../core/changes.js";
import type { DeploymentRecord, Listener, RevisionRecord, State } from "../core/model.js";
import { FAILURE_STATUSES } from "../core/lifecycle.js";
import { checkUserFile, openUserFile, UnusableFileError } from "./user-file.js";
import { isV1StateFile, readV1StateFile } from "./v1-state-file.js";

/** The state file cannot be used; nothing in it was changed. The message names the file. */
export class StateFileError extends Error {
  constructor(
    readonly file: string,
    reason: string,
    advice = "The file was left untouched; repair it, move it away to start again from the seed, or start without --state.",
  ) {
    super(`Simulator state file ${file} cannot be used: ${reason}. ${advice}`);
    this.name = "StateFileError";
  }
}

/** This Node has no node:sqlite (it needs 22.13 or later); only --state needs it. */
export class SqliteUnavailableError extends Error {
  override readonly name = "SqliteUnavailableError";
  constructor() {
    super(`--state needs Node.js 22.13 or later (it keeps the state with node:sqlite); this is Node.js ${process.versions.node}.`);
  }
}

/** "DMSS" in the header's application_id: this file is a simulator state. */
export const APPLICATION_ID = 0x444d5353;
/** The schema's version in the header's user_version. */
export const SCHEMA_VERSION = 1;

const list = (values: readonly string[]) => values.map((v) => `'${v}'`).join(", ");
const boolean = (column: string) => `${column} INTEGER NOT NULL CHECK (${column} IN (0, 1))`;
const jsonObject = (column: string) => `json_valid(${column}) AND json_type(${column}) = 'object'`;

/** The schema (docs/simulator.md shows it too). Enumerations come from the document's generated constants. */
export const SCHEMA = `
CREATE TABLE simulator (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  clock_offset_ms REAL NOT NULL,
  last_created_ms REAL NOT NULL,
  providers TEXT NOT NULL CHECK (json_valid(providers) AND json_type(providers) = 'array'),
  connections TEXT NOT NULL CHECK (${jsonObject("connections")}),
  repositories TEXT NOT NULL CHECK (${jsonObject("repositories")} AND json_type(repositories, '$.scm') = 'object' AND json_type(repositories, '$.forge') = 'object')
) STRICT;
CREATE TABLE deployments (
  position INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE CHECK (id <> ''),
  deployment TEXT NOT NULL CHECK (${jsonObject("deployment")} AND deployment ->> '$.id' = id
    AND json_type(deployment, '$.name') = 'text' AND json_type(deployment, '$.tenant_id') = 'text'
    AND deployment ->> '$.status' IN (${list(DEPLOYMENT_STATUSES)})
    AND json_type(deployment, '$.source_revision_config') = 'object'),
  deployment_type TEXT NOT NULL CHECK (deployment_type IN (${list(DEPLOYMENT_TYPES)})),
  ${boolean("remote_reconciled")},
  tag_value_ids TEXT NOT NULL CHECK (json_valid(tag_value_ids) AND json_type(tag_value_ids) = 'array'),
  fail_next TEXT CHECK (fail_next IN (${list(FAILURE_STATUSES)}))
) STRICT;
CREATE TABLE revisions (
  position INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE CHECK (id <> ''),
  deployment_id TEXT NOT NULL REFERENCES deployments (id) ON DELETE CASCADE,
  revision TEXT NOT NULL CHECK (${jsonObject("revision")} AND revision ->> '$.id' = id
    AND revision ->> '$.status' IN (${list(REVISION_STATUSES)})
    AND json_type(revision, '$.created_at') = 'text' AND json_type(revision, '$.updated_at') = 'text'
    AND json_type(revision, '$.source_revision_config') = 'object'),
  ${boolean("remote_reconciled")},
  step_at_ms REAL NOT NULL,
  fail_with TEXT CHECK (fail_with IN (${list(FAILURE_STATUSES)}))
) STRICT;
CREATE INDEX revisions_of_deployment ON revisions (deployment_id, position);
CREATE TABLE listeners (
  position INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE CHECK (id <> ''),
  listener TEXT NOT NULL CHECK (${jsonObject("listener")} AND listener ->> '$.id' = id)
) STRICT;
`;

export interface SqlitePersistenceOptions {
  /** A 1.0 state file (a JSON snapshot and FILE.journal) to import into `file`, which must not exist yet. The 1.0 files are only read. */
  importFrom?: string;
}

/** The persistence of `--state FILE`: the state in a SQLite database at `file`. */
export function createSqlitePersistence(file: string, options: SqlitePersistenceOptions = {}): Persistence {
  type Item = { changes: StateChange[]; resolve: () => void; reject: (error: unknown) => void };
  let worker: SqliteWorker | undefined;
  let queue: Item[] = [];
  let scheduled = false;
  let inFlight = false;
  let closed = false;
  let settled: (() => void) | undefined;
  let currentState: (() => State) | undefined;

  /** Sends every append queued so far as one commit; appends arriving meanwhile wait for the next one. */
  function send(): void {
    scheduled = false;
    if (inFlight || queue.length === 0) return;
    const batch = queue;
    queue = [];
    if (!worker || closed) {
      for (const item of batch) item.reject(new StorageError(`The state file ${file} is not open.`, undefined, 500));
      return;
    }
    const appends: Write[][] = [];
    const sent: Item[] = [];
    for (const item of batch) {
      try {
        const list: Write[] = [];
        for (const change of item.changes) writes(change, list);
        appends.push(list);
        sent.push(item);
      } catch (error) {
        // A change JSON cannot hold (a non-finite number) fails its own write only.
        item.reject(new StorageError(`The state file ${file} could not be written: ${(error as Error).message}`, undefined, 500));
      }
    }
    if (sent.length === 0) {
      send();
      return;
    }
    inFlight = true;
    worker.call({ op: "commit", appends }).then((reply) => {
      inFlight = false;
      const value = reply.value as { failed?: WorkerError; results?: (WorkerError | null)[] } | undefined;
      const failed = reply.error ?? value?.failed;
      sent.forEach((item, i) => {
        const error = failed ?? value?.results?.[i];
        if (error) item.reject(storageError(error, file));
        else item.resolve();
      });
      if (queue.length > 0) send();
      else settled?.();
    });
  }

  return {
    async load() {
      await loadSqlite(); // a Node without node:sqlite stops here, with one line saying which Node it needs
      const opening = new SqliteWorker();
      try {
        // The core attaches its state (the seed) before load(); a caller of load() alone gets the schema alone.
        const opened = openState(() => opening.database(file), file, options.importFrom, currentState);
        worker = opening;
        return opened.state;
      } catch (error) {
        await opening.terminate();
        throw error;
      }
    },
    append(changes) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ changes, resolve, reject });
        // Appends made before this turn of the event loop ends share one commit; while a commit is
        // on its way to the disk, every append waits for the next one.
        if (!scheduled && !inFlight) {
          scheduled = true;
          setImmediate(send);
        }
      });
    },
    attach(state) {
      // The core's state before load() is its seed: a new file is written with it, in the
      // transaction that creates the schema.
      currentState = state;
    },
    async close() {
      if (closed) return;
      while (inFlight || queue.length > 0) {
        if (!inFlight) send();
        if (inFlight) await new Promise<void>((resolve) => (settled = resolve));
      }
      closed = true;
      const running = worker;
      worker = undefined;
      if (!running) return;
      try {
        running.callSync({ op: "close" });
      } finally {
        await running.terminate();
      }
    },
  };
}

// --- opening -------------------------------------------------------------------------------------

// What this module uses of node:sqlite, declared here: the installed @types/node predates it.
type SQLInputValue = null | number | bigint | string | Uint8Array;
interface StatementSync {
  run(...values: SQLInputValue[]): unknown;
  get(...values: SQLInputValue[]): unknown;
  all(...values: SQLInputValue[]): unknown[];
  iterate(...values: SQLInputValue[]): Iterable<unknown>;
}
interface DatabaseSync {
  exec(sql: string): void;
  prepare(sql: string): StatementSync;
  close(): void;
}
interface Sqlite {
  DatabaseSync: new (path: string, options?: { enableForeignKeyConstraints?: boolean }) => DatabaseSync;
}
let sqliteModule: Sqlite | undefined;

/** node:sqlite, loaded once; without its experimental warning (Node 22 and 24 print one), and without hiding any other warning. */
export async function loadSqlite(): Promise<Sqlite> {
  if (sqliteModule) return sqliteModule;
  const emitWarning = process.emitWarning;
  process.emitWarning = function (this: unknown, warning: string | Error, ...rest: unknown[]) {
    const text = typeof warning === "string" ? warning : warning.message;
    const type = typeof rest[0] === "string" ? rest[0] : ((rest[0] as { type?: string } | undefined)?.type ?? (warning as Error).name);
    if (type === "ExperimentalWarning" && /SQLite/i.test(text)) return;
    return (emitWarning as (...args: unknown[]) => void).call(this, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    // By require, not import(): a missing builtin throws here rather than when the module graph links.
    sqliteModule = createRequire(import.meta.url)("node:sqlite") as Sqlite;
    return sqliteModule;
  } catch {
    throw new SqliteUnavailableError();
  } finally {
    process.emitWarning = emitWarning;
  }
}

const SQLITE_HEADER = "SQLite format 3\0";

/** The connection at start: a DatabaseSync, and the statements of a write run inside the open transaction. */
interface Connection extends DatabaseSync {
  write(list: Write[]): void;
}

const isSqliteHeader = (head: Buffer) => head.subarray(0, 16).toString("latin1") === SQLITE_HEADER;

/**
 * Opens, locks and checks the state file. A new file gets its schema and its first state (the
 * seed, or the imported 1.0 state) in one transaction: a start stopped at any moment leaves no file,
 * an empty one, or a whole one, and the next start serves each of them.
 */
function openState(
  connect: () => Connection,
  file: string,
  importFrom: string | undefined,
  seed: (() => State) | undefined,
): { db: Connection; state?: State } {
  const head = firstBytes(file);
  const empty = head === undefined || head.length === 0;
  let imported: State | undefined;
  const exists = () =>
    new StateFileError(
      file,
      "it already exists, and a 1.0 state file is imported only into a new file",
      "Nothing was imported; name a file that does not exist yet.",
    );
  if (importFrom !== undefined) {
    // A SQLite file is looked into once locked: one with no schema (an import stopped halfway) is still new.
    if (!empty && !isSqliteHeader(head)) throw exists();
    imported = readV1StateFile(importFrom, (reason) => new StateFileError(importFrom, reason, "Nothing was imported."));
  } else if (empty ? isV1StateFile(file, head) : !isSqliteHeader(head)) {
    if (isV1StateFile(file, head)) {
      throw new StateFileError(
        file,
        "it is a 1.0 state file (a JSON snapshot and journal); the simulator now keeps its state in SQLite",
        `It was left untouched. Import it once into a new file: dms simulate --state NEW.sqlite --import-state ${file}`,
      );
    }
    throw new StateFileError(file, "it is not a SQLite database (it is damaged, or another program's file)");
  }
  if (head === undefined) createPrivate(file);

  const db = openLocked(connect, file);
  try {
    const applicationId = pragma(db, "application_id");
    const version = pragma(db, "user_version");
    const tables = Number((db.prepare("SELECT count(*) AS n FROM sqlite_schema").get() as { n: number }).n);
    let state: State | undefined;
    if (applicationId === 0 && version === 0 && tables === 0) {
      db.exec(SCHEMA);
      db.exec(`PRAGMA application_id = ${APPLICATION_ID}`);
      db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
      const first = imported ?? seed?.();
      try {
        if (first) db.write(writes({ op: "replace_state", state: first }, []));
      } catch (error) {
        if (!imported) throw error;
        throw new StateFileError(importFrom!, `importing it into ${file} failed: ${(error as Error).message}`, `Nothing was imported; ${file} holds no state.`);
      }
      // The imported state is read back through the checks of any start.
      if (imported) state = readState(db, file);
    } else if (importFrom !== undefined) {
      throw exists();
    } else if (applicationId !== APPLICATION_ID) {
      throw new StateFileError(file, `it is another program's SQLite database (application_id ${applicationId}, not ${APPLICATION_ID})`);
    } else if (version !== SCHEMA_VERSION) {
      throw new StateFileError(file, `its schema version is ${version}, and this simulator reads version ${SCHEMA_VERSION}`);
    } else {
      const check = db.prepare("PRAGMA quick_check").all() as { quick_check: string }[];
      if (check.length !== 1 || check[0]!.quick_check !== "ok") {
        const found = check.map((c) => c.quick_check);
        // quick_check also checks every row against the schema's NOT NULL and CHECK constraints.
        const rows = found.every((line) => /^(CHECK constraint failed|NULL value in)/.test(line));
        throw new StateFileError(file, `${rows ? "rows break the schema's constraints" : "it is damaged"} (${found.slice(0, 3).join("; ")})`);
      }
      const orphan = db.prepare("PRAGMA foreign_key_check").get() as { table: string; rowid: number } | undefined;
      if (orphan) throw new StateFileError(file, `row ${orphan.rowid} of ${orphan.table} belongs to no deployment`);
      const rows = db
        .prepare(
          "SELECT (SELECT count(*) FROM simulator) + (SELECT count(*) FROM deployments) + (SELECT count(*) FROM revisions) + (SELECT count(*) FROM listeners) AS n",
        )
        .get() as { n: number };
      const first = Number(rows.n) === 0 ? seed?.() : undefined;
      if (first) {
        // The schema and not one row: a first start of an earlier version stopped between its two
        // commits. Nothing is lost by writing the first state now, in this transaction.
        db.write(writes({ op: "replace_state", state: first }, []));
      } else state = readState(db, file);
    }
    db.exec("COMMIT");
    // Set after the checks, so a file that is refused is not changed (WAL mode is written in its header).
    if ((db.prepare("PRAGMA journal_mode = WAL").get() as { journal_mode: string }).journal_mode !== "wal") {
      throw new StateFileError(file, "SQLite could not put it in WAL mode");
    }
    db.exec("PRAGMA synchronous = FULL");
    // After a checkpoint, the -wal file is cut back to 8 MiB (the seed's first save makes it large).
    db.exec("PRAGMA journal_size_limit = 8388608");
    return { db, ...(state ? { state } : {}) };
  } catch (error) {
    rollback(db, "ROLLBACK");
    db.close();
    if (error instanceof StateFileError) throw error;
    throw new StateFileError(file, describeSqliteError(error));
  }
}

const busy = (file: string) =>
  new StateFileError(
    file,
    "another simulator (or another program) has it open",
    "One simulator per state file: stop the other one, or give this one a file of its own.",
  );

/** A pause of the thread, for the few milliseconds between attempts at the lock at start. */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * A connection holding the file's exclusive lock, inside a transaction. A start that finds the lock
 * taken tries twice more, a few random milliseconds apart, after closing its connection: two starts
 * that meet a hot journal (a first start killed mid-write) both need the EXCLUSIVE lock to roll it
 * back, and each may fail while the other holds its SHARED one; closing lets the other through.
 */
function openLocked(connect: () => Connection, file: string): Connection {
  for (let attempt = 1; ; attempt++) {
    let db: Connection;
    try {
      db = connect();
    } catch (error) {
      throw new StateFileError(file, `it cannot be opened (${(error as Error).message})`);
    }
    let locked: boolean;
    try {
      locked = lockExclusively(db);
    } catch (error) {
      rollback(db, "ROLLBACK");
      db.close();
      if (sqliteCode(error) === 5) throw busy(file);
      throw new StateFileError(file, describeSqliteError(error));
    }
    if (locked) return db;
    // Exclusive locking mode keeps the SHARED lock of the failed BEGIN: closing lets go of it.
    db.close();
    if (attempt === 3) throw busy(file);
    pause(10 + Math.random() * 40);
  }
}

/**
 * Takes the file's exclusive lock, which exclusive locking mode keeps until close, and opens a
 * transaction under it. Of simulators starting at the same moment exactly one gets the lock: the
 * first to take SQLite's RESERVED lock (BEGIN IMMEDIATE, which only one connection can hold) is the
 * one; every other fails at once and lets go by closing its connection. The one then waits for
 * those to let go of their SHARED locks (BEGIN EXCLUSIVE with a busy timeout: in exclusive mode the
 * RESERVED lock outlives the ROLLBACK), which they do without waiting for anything. Taking the
 * EXCLUSIVE lock straight away instead lets two starts each block the other, and both refuse.
 * False when the lock is taken (SQLITE_BUSY at BEGIN IMMEDIATE).
 */
function lockExclusively(db: DatabaseSync): boolean {
  db.exec("PRAGMA locking_mode = EXCLUSIVE");
  try {
    db.exec("BEGIN IMMEDIATE");
  } catch (error) {
    if (sqliteCode(error) === 5) return false;
    throw error;
  }
  db.exec("ROLLBACK");
  db.exec("PRAGMA busy_timeout = 30000");
  try {
    db.exec("BEGIN EXCLUSIVE");
  } finally {
    db.exec("PRAGMA busy_timeout = 0");
  }
  return true;
}

/** The first bytes of the file (up to 256), or undefined when there is no file. Anything but a regular file is refused before it is opened. */
function firstBytes(file: string): Buffer | undefined {
  let fd: number;
  try {
    if (checkUserFile(file) === "missing") return undefined;
    fd = openUserFile(file, constants.O_RDONLY);
  } catch (error) {
    if (error instanceof UnusableFileError) throw new StateFileError(file, error.reason, "Name a regular file, or a file that does not exist yet.");
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    throw new StateFileError(file, `it cannot be read (${code ?? (error as Error).message})`);
  }
  try {
    const buffer = Buffer.alloc(256);
    return buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0));
  } finally {
    closeSync(fd);
  }
}

/** Creates the file, readable by its owner only, before SQLite opens it (SQLite gives its -wal file the same mode). */
function createPrivate(file: string): void {
  try {
    closeSync(openUserFile(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600));
  } catch (error) {
    if (error instanceof UnusableFileError) throw new StateFileError(file, error.reason);
    const code = (error as NodeJS.ErrnoException).code;
    // Created by someone else in the meantime: opening it decides (its lock, its contents).
    if (code !== "EEXIST") throw new StateFileError(file, `it cannot be created (${code ?? (error as Error).message})`);
  }
}

function pragma(db: DatabaseSync, name: string): number {
  return Number((db.prepare(`PRAGMA ${name}`).get() as Record<string, number>)[name]);
}

// --- reading -------------------------------------------------------------------------------------

interface DeploymentRowData {
  id: string;
  deployment: string;
  deployment_type: string;
  remote_reconciled: number;
  tag_value_ids: string;
  fail_next: string | null;
}

interface RevisionRowData {
  id: string;
  deployment_id: string;
  revision: string;
  remote_reconciled: number;
  step_at_ms: number;
  fail_with: string | null;
}

/** Reads every row into a state, checking that the simulator can serve each one (the schema's constraints hold only for rows SQLite was asked to check). */
function readState(db: DatabaseSync, file: string): State {
  const bad = (what: string, why: string) => new StateFileError(file, `${what} ${why}`);
  const meta = db.prepare("SELECT * FROM simulator WHERE id = 1").get() as Record<string, unknown> | undefined;
  if (!meta) throw bad("the table simulator", "has no row (id 1)");
  const clock_offset_ms = finite(meta.clock_offset_ms, () => bad("simulator.clock_offset_ms", "is not a number"));
  const last_created_ms = finite(meta.last_created_ms, () => bad("simulator.last_created_ms", "is not a number"));
  const providers = parseJson(meta.providers, "simulator.providers", bad);
  const connections = parseJson(meta.connections, "simulator.connections", bad);
  const repositories = parseJson(meta.repositories, "simulator.repositories", bad) as State["repositories"];
  if (!Array.isArray(providers)) throw bad("simulator.providers", "is not a JSON array");
  if (!isObject(connections) || Object.values(connections).some((c) => !Array.isArray(c))) throw bad("simulator.connections", "is not an object of arrays");
  if (!isObject(repositories) || !isObject(repositories.scm) || !isObject(repositories.forge))
    throw bad("simulator.repositories", "has no scm and forge objects");

  const deployments: DeploymentRecord[] = [];
  const byId = new Map<string, DeploymentRecord>();
  for (const row of db.prepare("SELECT * FROM deployments ORDER BY position").iterate() as Iterable<DeploymentRowData>) {
    const what = `deployment ${JSON.stringify(row.id)}`;
    const deployment = parseJson(row.deployment, what, bad) as DeploymentRecord["deployment"];
    if (!isObject(deployment) || deployment.id !== row.id) throw bad(what, "is not a JSON object with its id");
    for (const key of ["name", "tenant_id", "status"] as const) if (typeof deployment[key] !== "string") throw bad(what, `has no ${key}`);
    if (!(DEPLOYMENT_STATUSES as readonly string[]).includes(deployment.status)) throw bad(what, `has an unknown status ${deployment.status}`);
    if (!isObject(deployment.source_revision_config)) throw bad(what, "has no source_revision_config object");
    if (!(DEPLOYMENT_TYPES as readonly unknown[]).includes(row.deployment_type)) throw bad(what, "has an unknown deployment_type");
    const tags = parseJson(row.tag_value_ids, what, bad);
    if (!Array.isArray(tags) || tags.some((t) => typeof t !== "string")) throw bad(what, "has tag_value_ids that are not a JSON array of strings");
    const record: DeploymentRecord = {
      deployment,
      deployment_type: row.deployment_type as DeploymentRecord["deployment_type"],
      remote_reconciled: flag(row.remote_reconciled, () => bad(what, "has a remote_reconciled other than 0 or 1")),
      tag_value_ids: tags,
      revisions: [],
      fail_next: failure(row.fail_next, () => bad(what, "has an unknown fail_next")),
    };
    if (byId.has(row.id)) throw bad(what, "appears twice");
    byId.set(row.id, record);
    deployments.push(record);
  }
  const revisionIds = new Set<string>();
  for (const row of db.prepare("SELECT * FROM revisions ORDER BY position").iterate() as Iterable<RevisionRowData>) {
    const what = `revision ${JSON.stringify(row.id)}`;
    const owner = byId.get(row.deployment_id);
    if (!owner) throw bad(what, `belongs to no deployment (${JSON.stringify(row.deployment_id)})`);
    const revision = parseJson(row.revision, what, bad) as RevisionRecord["revision"];
    if (!isObject(revision) || revision.id !== row.id) throw bad(what, "is not a JSON object with its id");
    if (!(REVISION_STATUSES as readonly string[]).includes(revision.status)) throw bad(what, `has an unknown status ${revision.status}`);
    for (const key of ["created_at", "updated_at"] as const) {
      if (typeof revision[key] !== "string" || Number.isNaN(Date.parse(revision[key]))) throw bad(what, `has no ${key} date`);
    }
    if (!isObject(revision.source_revision_config)) throw bad(what, "has no source_revision_config object");
    if (revisionIds.has(row.id)) throw bad(what, "appears twice");
    revisionIds.add(row.id);
    owner.revisions.push({
      revision,
      remote_reconciled: flag(row.remote_reconciled, () => bad(what, "has a remote_reconciled other than 0 or 1")),
      step_at_ms: finite(row.step_at_ms, () => bad(what, "has a step_at_ms that is not a number")),
      fail_with: failure(row.fail_with, () => bad(what, "has an unknown fail_with")),
    });
  }
  const listeners: Listener[] = [];
  for (const row of db.prepare("SELECT id, listener FROM listeners ORDER BY position").iterate() as Iterable<{ id: string; listener: string }>) {
    const what = `listener ${JSON.stringify(row.id)}`;
    const listener = parseJson(row.listener, what, bad) as Listener;
    if (!isObject(listener) || listener.id !== row.id) throw bad(what, "is not a JSON object with its id");
    listeners.push(listener);
  }
  return {
    format: "dms-simulator-state",
    version: 1,
    clock_offset_ms,
    last_created_ms,
    deployments,
    listeners,
    providers: providers as State["providers"],
    connections: connections as State["connections"],
    repositories,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function parseJson(text: unknown, what: string, bad: (what: string, why: string) => Error): unknown {
  if (typeof text !== "string") throw bad(what, "is not JSON text");
  try {
    return JSON.parse(text);
  } catch {
    throw bad(what, "is not valid JSON");
  }
}

function finite(value: unknown, fail: () => Error): number {
  if (typeof value !== "number" || !Number.isFinite(value)) throw fail();
  return value;
}

function flag(value: unknown, fail: () => Error): boolean {
  if (value !== 0 && value !== 1) throw fail();
  return value === 1;
}

function failure(value: unknown, fail: () => Error): DeploymentRecord["fail_next"] {
  if (value === null) return null;
  if (!(FAILURE_STATUSES as readonly unknown[]).includes(value)) throw fail();
  return value as DeploymentRecord["fail_next"];
}

// --- writing -------------------------------------------------------------------------------------

/** The statements a write runs, by name; the worker prepares each once. */
const SQL = {
  putDeployment: `INSERT INTO deployments (id, deployment, deployment_type, remote_reconciled, tag_value_ids, fail_next) VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (id) DO UPDATE SET deployment = excluded.deployment, deployment_type = excluded.deployment_type,
      remote_reconciled = excluded.remote_reconciled, tag_value_ids = excluded.tag_value_ids, fail_next = excluded.fail_next`,
  putRevision: `INSERT INTO revisions (id, deployment_id, revision, remote_reconciled, step_at_ms, fail_with) VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (id) DO UPDATE SET deployment_id = excluded.deployment_id, revision = excluded.revision,
      remote_reconciled = excluded.remote_reconciled, step_at_ms = excluded.step_at_ms, fail_with = excluded.fail_with`,
  deleteRevision: "DELETE FROM revisions WHERE id = ? AND deployment_id = ?",
  putListener: "INSERT INTO listeners (id, listener) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET listener = excluded.listener",
  setClock: "UPDATE simulator SET clock_offset_ms = ?, last_created_ms = ? WHERE id = 1",
  putSimulator: "INSERT OR REPLACE INTO simulator (id, clock_offset_ms, last_created_ms, providers, connections, repositories) VALUES (1, ?, ?, ?, ?, ?)",
  clearRevisions: "DELETE FROM revisions",
  clearDeployments: "DELETE FROM deployments",
  clearListeners: "DELETE FROM listeners",
} as const;

/** One statement of a write and its parameters. */
type Write = [sql: string, params: SQLInputValue[]];

/** JSON would write Infinity and NaN as null, so what a restart reads back would differ from memory. */
function json(value: unknown): string {
  return JSON.stringify(value, (key, v) => {
    if (typeof v === "number" && !Number.isFinite(v)) throw new RangeError(`"${key}" is ${v}, which JSON cannot hold`);
    return v;
  });
}

/** The statements that save one change, appended to `out`. */
function writes(change: StateChange, out: Write[]): Write[] {
  switch (change.op) {
    case "put_deployment": {
      const r = change.row;
      out.push([SQL.putDeployment, [r.deployment.id, json(r.deployment), r.deployment_type, r.remote_reconciled ? 1 : 0, json(r.tag_value_ids), r.fail_next]]);
      return out;
    }
    case "put_revision":
      return putRevision(change.deployment_id, change.record, out);
    case "delete_revision":
      out.push([SQL.deleteRevision, [change.revision_id, change.deployment_id]]);
      return out;
    case "put_listener":
      out.push([SQL.putListener, [change.listener.id, json(change.listener)]]);
      return out;
    case "set_clock":
      out.push([SQL.setClock, [change.clock_offset_ms, change.last_created_ms]]);
      return out;
    case "replace_state": {
      const state = change.state;
      out.push([SQL.clearRevisions, []], [SQL.clearDeployments, []], [SQL.clearListeners, []]);
      out.push([SQL.putSimulator, [state.clock_offset_ms, state.last_created_ms, json(state.providers), json(state.connections), json(state.repositories)]]);
      for (const record of state.deployments) {
        writes({ op: "put_deployment", row: record }, out);
        for (const revision of record.revisions) putRevision(record.deployment.id, revision, out);
      }
      for (const listener of state.listeners) out.push([SQL.putListener, [listener.id, json(listener)]]);
      return out;
    }
  }
}

function putRevision(deploymentId: string, r: RevisionRecord, out: Write[]): Write[] {
  out.push([SQL.putRevision, [r.revision.id, deploymentId, json(r.revision), r.remote_reconciled ? 1 : 0, r.step_at_ms, r.fail_with]]);
  return out;
}

// --- the worker ----------------------------------------------------------------------------------

// The connection lives in a worker thread, so that a commit's fsync (and SQLite's checkpoints)
// never hold the event loop: requests go on being read, answered from memory, and gathered into
// the next commit while one is on its way to the disk. At start, the checks call the worker
// synchronously (a SharedArrayBuffer signal and receiveMessageOnPort), so the opening code reads
// like the single-threaded code it is; commits are messages. The worker's code is plain JavaScript
// here, so it runs the same from the compiled package and from the TypeScript sources.
// process.getBuiltinModule, not require: the worker may inherit --input-type=module.
const WORKER = `
const { parentPort, workerData } = process.getBuiltinModule("node:worker_threads");
const emitWarning = process.emitWarning;
process.emitWarning = function (warning, ...rest) {
  const text = typeof warning === "string" ? warning : warning && warning.message;
  const type = typeof rest[0] === "string" ? rest[0] : (rest[0] && rest[0].type) || (warning && warning.name);
  if (type === "ExperimentalWarning" && /SQLite/i.test(String(text))) return;
  return emitWarning.call(this, warning, ...rest);
};
let DatabaseSync;
let loadError;
try {
  ({ DatabaseSync } = process.getBuiltinModule("node:sqlite"));
} catch (e) {
  loadError = e;
}
process.emitWarning = emitWarning;
const { signal, port } = workerData;
let db;
const statements = new Map();
const statement = (sql) => {
  let s = statements.get(sql);
  if (!s) statements.set(sql, (s = db.prepare(sql)));
  return s;
};
const errorOf = (e) => ({ message: String(e && e.message), errcode: e && e.errcode });
const undo = (sql) => { try { db.exec(sql); } catch {} };
function commit(appends) {
  try { db.exec("BEGIN IMMEDIATE"); } catch (e) { return { failed: errorOf(e) }; }
  const results = [];
  for (const list of appends) {
    try {
      db.exec("SAVEPOINT append");
      for (const [sql, params] of list) statement(sql).run(...params);
      db.exec("RELEASE append");
      results.push(null);
    } catch (e) {
      undo("ROLLBACK TO append; RELEASE append");
      results.push(errorOf(e));
    }
  }
  try { db.exec("COMMIT"); } catch (e) { undo("ROLLBACK"); return { failed: errorOf(e) }; }
  return { results };
}
function call(m) {
  if (loadError) throw loadError;
  switch (m.op) {
    case "open": db = new DatabaseSync(m.file, { enableForeignKeyConstraints: true }); return null;
    case "exec": db.exec(m.sql); return null;
    case "get": return statement(m.sql).get(...m.params);
    case "all": return statement(m.sql).all(...m.params);
    case "commit": return commit(m.appends);
    case "write": for (const [sql, params] of m.list) statement(sql).run(...params); return null;
    case "close": statements.clear(); if (db) db.close(); db = undefined; return null;
  }
}
function answer(m) {
  try { return { value: call(m) }; } catch (e) { return { error: errorOf(e) }; }
}
port.on("message", (m) => {
  port.postMessage(answer(m));
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
});
parentPort.on("message", (m) => parentPort.postMessage({ id: m.id, ...answer(m) }));
`;

interface WorkerError {
  message: string;
  errcode?: number;
}

type Reply = { value?: unknown; error?: WorkerError };

/** The worker holding the connection: `db` for synchronous calls at start, `commit` for writes. */
class SqliteWorker {
  private readonly worker: Worker;
  private readonly signal = new Int32Array(new SharedArrayBuffer(4));
  private readonly port: MessagePort;
  private readonly pending = new Map<number, (reply: Reply) => void>();
  private nextId = 0;
  private exited: Error | undefined;

  constructor() {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.worker = new Worker(WORKER, { eval: true, workerData: { signal: this.signal, port: port2 }, transferList: [port2] });
    this.worker.on("message", (m: Reply & { id: number }) => {
      const resolve = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (this.pending.size === 0) this.worker.unref();
      resolve?.(m);
    });
    this.worker.on("error", (error) => this.fail(error));
    this.worker.on("exit", (code) => this.fail(new Error(`the SQLite worker exited (${code})`)));
    this.worker.unref();
    this.port.unref();
  }

  private fail(error: Error): void {
    this.exited ??= error;
    for (const resolve of this.pending.values()) resolve({ error: { message: error.message } });
    this.pending.clear();
  }

  /** A call that waits for its answer, blocking the thread: only at start and close. */
  callSync(message: Record<string, unknown>): unknown {
    if (this.exited) throw this.exited;
    Atomics.store(this.signal, 0, 0);
    this.port.postMessage(message);
    if (Atomics.wait(this.signal, 0, 0, 120_000) === "timed-out") throw new Error("the SQLite worker did not answer within 120 s");
    const reply = receiveMessageOnPort(this.port)?.message as Reply | undefined;
    if (!reply) throw new Error("the SQLite worker sent no answer");
    if (reply.error) throw Object.assign(new Error(reply.error.message), { errcode: reply.error.errcode });
    return reply.value;
  }

  /** A call answered by a message; keeps the process alive until it is. */
  call(message: Record<string, unknown>): Promise<Reply> {
    if (this.exited) return Promise.resolve({ error: { message: this.exited.message } });
    const id = this.nextId++;
    this.worker.ref();
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.worker.postMessage({ ...message, id });
    });
  }

  /** The connection as DatabaseSync-like object, for the checks at start. */
  database(file: string): Connection {
    this.callSync({ op: "open", file });
    const statement = (sql: string): StatementSync => ({
      run: (...params) => this.callSync({ op: "all", sql, params }),
      get: (...params) => this.callSync({ op: "get", sql, params }),
      all: (...params) => this.callSync({ op: "all", sql, params }) as unknown[],
      iterate: (...params) => this.callSync({ op: "all", sql, params }) as unknown[],
    });
    return {
      exec: (sql) => {
        this.callSync({ op: "exec", sql });
      },
      write: (list) => {
        this.callSync({ op: "write", list });
      },
      prepare: statement,
      close: () => {
        this.callSync({ op: "close" });
      },
    };
  }

  async terminate(): Promise<void> {
    this.port.close();
    await this.worker.terminate();
  }
}

// --- errors --------------------------------------------------------------------------------------

const SQLITE_NAMES: Record<number, string> = {
  5: "SQLITE_BUSY",
  8: "SQLITE_READONLY",
  10: "SQLITE_IOERR",
  11: "SQLITE_CORRUPT",
  13: "SQLITE_FULL",
  14: "SQLITE_CANTOPEN",
  19: "SQLITE_CONSTRAINT",
  26: "SQLITE_NOTADB",
};

/** The primary SQLite result code of an error from node:sqlite, if it is one. */
function sqliteCode(error: unknown): number | undefined {
  const code = (error as { errcode?: unknown } | undefined)?.errcode;
  return typeof code === "number" ? code & 0xff : undefined;
}

function describeSqliteError(error: unknown): string {
  const code = sqliteCode(error);
  const message = (error as Error | undefined)?.message ?? String(error);
  return code === undefined ? message : `${message} (${SQLITE_NAMES[code] ?? `SQLite error ${code}`})`;
}

/** A failed write as the core's StorageError: 507 when the disk is full, else 500. */
function storageError(error: unknown, file: string): StorageError {
  const code = sqliteCode(error);
  const name = code === undefined ? undefined : (SQLITE_NAMES[code] ?? `SQLITE_${code}`);
  return new StorageError(`The state file ${file} could not be written: ${describeSqliteError(error)}`, name, code === 13 ? 507 : 500);
}

function rollback(db: DatabaseSync, sql: string): void {
  try {
    db.exec(sql);
  } catch {
    // No transaction open (SQLite rolled it back itself): nothing to undo.
  }
}
