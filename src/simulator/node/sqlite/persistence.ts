// The simulator's state on disk (`--state FILE`): a SQLite database through Node's built-in
// node:sqlite, as an adapter of the core's Persistence. One row per deployment, revision and
// listener and one for the clock (schema.ts); each append is a savepoint inside a transaction that
// commits, with every append that arrived meanwhile, in one fsync'd WAL commit (synchronous=FULL;
// group-commit.ts). The connection holds the file in exclusive locking mode from start to close
// (lock.ts). SQLite writes the file in place: its mode, its owner and a symlink to it stay as they
// are; a file this module creates is 0600 (file-head.ts). The connection lives in a worker thread,
// so a commit's fsync never holds the event loop (worker.ts).
import { type Persistence, StorageError } from "../../core/changes.js";
import type { State } from "../../core/model.js";
import { SqliteWorker } from "./connection.js";
import { fileIdentity } from "./file-head.js";
import { createGroupCommit } from "./group-commit.js";
import { loadSqlite } from "./load-sqlite.js";
import { openState } from "./open.js";

export interface SqlitePersistenceOptions {
  /** A 1.0 state file (a JSON snapshot and FILE.journal) to import into `file`, which must not exist yet. The 1.0 files are only read. */
  importFrom?: string;
}

/** The persistence of `--state FILE`: the state in a SQLite database at `file`. */
export function createSqlitePersistence(file: string, options: SqlitePersistenceOptions = {}): Persistence {
  let worker: SqliteWorker | undefined;
  let closed = false;
  let currentState: (() => State) | undefined;
  // The file the connection opened: a path that names another file now, or none (moved, replaced
  // or deleted while the simulator runs), would take writes no restart finds, so none is made.
  let opened: string | undefined;
  const stillThere = () => {
    const now = fileIdentity(file);
    if (now === opened) return undefined;
    const what = now === undefined ? "it was moved or deleted" : "another file took its name";
    return new StorageError(
      `The state file ${file} is not the file the simulator opened (${what}); nothing more is written, so that no write is acknowledged that a restart would not find. Restart the simulator.`,
      undefined,
      500,
    );
  };
  const commits = createGroupCommit(file, () => (closed ? undefined : worker), stillThere);

  return {
    async load() {
      await loadSqlite(); // a Node without node:sqlite stops here, with one line saying which Node it needs
      const opening = await SqliteWorker.start();
      try {
        // The core attaches its state (the seed) before load(); a caller of load() alone gets the schema alone.
        const { state } = openState(() => opening.database(file), file, options.importFrom, currentState);
        opened = fileIdentity(file);
        worker = opening;
        return state;
      } catch (error) {
        await opening.terminate();
        throw error;
      }
    },
    append(changes) {
      return commits.append(changes);
    },
    attach(state) {
      // The core's state before load() is its seed: a new file is written with it, in the
      // transaction that creates the schema.
      currentState = state;
    },
    async close() {
      if (closed) return;
      await commits.settled();
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
