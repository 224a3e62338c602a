// The worker thread that holds the state file's connection (connection.ts starts it), so that a
// commit's fsync and SQLite's checkpoints never hold the main thread's event loop: requests go on
// being read, answered from memory, and gathered into the next commit while one is on its way to
// the disk. Synchronous calls (the checks at start, close) come on workerData's port and are
// signalled through a SharedArrayBuffer; commits come as messages on parentPort.
//
// Node runs this file as it is, never through vitest or a bundler: compiled in dist/, and with its
// types stripped from src/ when tests import the sources. A `.js` specifier would not find a `.ts`
// sibling there, so it imports its siblings' types only (erased) and load-sqlite by its own URL.
import type { DatabaseSync, StatementSync } from "node:sqlite";
import { parentPort, workerData } from "node:worker_threads";
import type * as LoadSqlite from "./load-sqlite.js";
import type { Answers, CommitOutcome, CommitRequest, Reply, Request, WorkerData, WorkerError, Write } from "./protocol.js";

const sibling = (name: string) => new URL(`./${name}${import.meta.url.endsWith(".ts") ? ".ts" : ".js"}`, import.meta.url).href;

let Database: typeof DatabaseSync | undefined;
let loadError: WorkerError | undefined;
try {
  const loading: typeof LoadSqlite = await import(sibling("load-sqlite"));
  Database = (await loading.loadSqlite()).DatabaseSync;
} catch (error) {
  // Every call answers with it: a worker that died instead would leave a synchronous call waiting.
  loadError = errorOf(error);
}

let db: DatabaseSync | undefined;
const statements = new Map<string, StatementSync>();

function open(): DatabaseSync {
  if (!db) throw new Error("the state file is not open");
  return db;
}

function statement(sql: string): StatementSync {
  let prepared = statements.get(sql);
  if (!prepared) {
    prepared = open().prepare(sql);
    statements.set(sql, prepared);
  }
  return prepared;
}

function run(list: Write[]): void {
  for (const [sql, params] of list) statement(sql).run(...params);
}

function errorOf(error: unknown): WorkerError {
  const message = error instanceof Error ? error.message : String(error);
  const errcode = typeof error === "object" && error !== null && "errcode" in error ? error.errcode : undefined;
  return typeof errcode === "number" ? { message, errcode } : { message };
}

/** Runs `sql` when it can: after a failed statement SQLite may have rolled the transaction back itself. */
function undo(sql: string): void {
  try {
    open().exec(sql);
  } catch {
    // Nothing open to undo.
  }
}

/** One transaction; each append in a savepoint, so a failed one is undone alone and the others commit. */
function commit(appends: Write[][]): CommitOutcome {
  try {
    open().exec("BEGIN IMMEDIATE");
  } catch (error) {
    return { failed: errorOf(error) };
  }
  const results: (WorkerError | null)[] = [];
  for (const list of appends) {
    try {
      open().exec("SAVEPOINT append");
      run(list);
      open().exec("RELEASE append");
      results.push(null);
    } catch (error) {
      undo("ROLLBACK TO append; RELEASE append");
      results.push(errorOf(error));
    }
  }
  try {
    open().exec("COMMIT");
  } catch (error) {
    undo("ROLLBACK");
    return { failed: errorOf(error) };
  }
  return { results };
}

function call(request: Request): Answers[Request["op"]] {
  switch (request.op) {
    case "open":
      if (!Database) throw new Error("node:sqlite is not loaded");
      db = new Database(request.file, { enableForeignKeyConstraints: true });
      return null;
    case "exec":
      open().exec(request.sql);
      return null;
    case "get":
      return statement(request.sql).get(...request.params);
    case "all":
      return statement(request.sql).all(...request.params);
    case "write":
      run(request.list);
      return null;
    case "commit":
      return commit(request.appends);
    case "close":
      statements.clear();
      db?.close();
      db = undefined;
      return null;
  }
}

function commitAnswer(request: CommitRequest): Reply<CommitRequest> {
  return loadError ? { error: loadError } : { value: commit(request.appends) };
}

function answer(request: Request): Reply {
  if (loadError) return { error: loadError };
  try {
    return { value: call(request) };
  } catch (error) {
    return { error: errorOf(error) };
  }
}

/** What the worker posts on parentPort: that it is ready (node:sqlite loaded or not), then the answer to each commit, by id. */
export type WorkerMessage = { ready: true } | (Reply<CommitRequest> & { id: number });

const post = (message: WorkerMessage) => parentPort?.postMessage(message);
const { signal, port }: WorkerData = workerData;
port.on("message", (request: Request) => {
  port.postMessage(answer(request));
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
});
parentPort?.on("message", (request: CommitRequest & { id: number }) => post({ id: request.id, ...commitAnswer(request) }));
post({ ready: true });
