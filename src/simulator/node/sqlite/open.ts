// Opening the state file at start: which kind of file it is, the lock, and the checks before the
// simulator serves what it holds. A new file gets its schema and its first state (the seed, or an
// imported 1.0 state) in one transaction: a start stopped at any moment leaves no file, an empty
// one, or a whole one, and the next start serves each of them. A file that is refused is not changed.
import type { State } from "../../core/model.js";
import { isV1StateFile, readV1StateFile } from "../v1-state-file.js";
import type { Connection } from "./connection.js";
import { describeSqliteError, messageOf, StateFileError, sqliteCode } from "./errors.js";
import { checkWritable, createPrivate, firstBytes, isSqliteHeader } from "./file-head.js";
import { openLocked, rollback } from "./lock.js";
import { readState } from "./read-state.js";
import { APPLICATION_ID, SCHEMA, SCHEMA_TABLES, SCHEMA_VERSION } from "./schema.js";
import { writes } from "./writes.js";

/**
 * Opens, locks and checks the state file; `state` is what it holds, or undefined when the simulator
 * starts from its seed (`seed`, which a new file was just given).
 */
export function openState(
  connect: () => Connection,
  file: string,
  importFrom: string | undefined,
  seed: (() => State) | undefined,
): { db: Connection; state?: State } {
  const head = firstBytes(file);
  const imported = importFrom === undefined ? undefined : readImport(file, importFrom, head);
  if (importFrom === undefined) refuseOtherFiles(file, head);
  // Before SQLite opens it: a read-only file or folder would otherwise fail as "disk I/O error".
  checkWritable(file, head !== undefined);
  if (head === undefined) createPrivate(file);

  const db = openLocked(connect, file);
  try {
    const applicationId = pragma(db, "application_id");
    const version = pragma(db, "user_version");
    const tables = Number(db.get("SELECT count(*) AS n FROM sqlite_schema")?.n);
    let state: State | undefined;
    if (applicationId === 0 && version === 0 && tables === 0) {
      db.exec(SCHEMA);
      db.exec(`PRAGMA application_id = ${APPLICATION_ID}`);
      db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
      const first = imported ?? seed?.();
      try {
        if (first) db.write(writes({ op: "replace_state", state: first }, []));
      } catch (error) {
        if (importFrom === undefined) throw error;
        throw new StateFileError(importFrom, `importing it into ${file} failed: ${messageOf(error)}`, `Nothing was imported; ${file} holds no state.`);
      }
      // The imported state is read back through the checks of any start.
      if (imported) state = readState(db, file);
    } else if (importFrom !== undefined) {
      throw notNew(file);
    } else if (applicationId !== APPLICATION_ID) {
      throw new StateFileError(file, `it is another program's SQLite database (application_id ${applicationId}, not ${APPLICATION_ID})`);
    } else if (version !== SCHEMA_VERSION) {
      throw new StateFileError(file, `its schema version is ${version}, and this simulator reads version ${SCHEMA_VERSION}`);
    } else {
      checkShape(db, file);
      checkIntegrity(db, file);
      const rows = db.get(
        "SELECT (SELECT count(*) FROM simulator) + (SELECT count(*) FROM deployments) + (SELECT count(*) FROM revisions) + (SELECT count(*) FROM listeners) AS n",
      )?.n;
      const first = Number(rows) === 0 ? seed?.() : undefined;
      if (first) {
        // The schema and not one row: a first start of an earlier version stopped between its two
        // commits. Nothing is lost by writing the first state now, in this transaction.
        db.write(writes({ op: "replace_state", state: first }, []));
      } else state = readState(db, file);
    }
    db.exec("COMMIT");
    // Set after the checks, so a file that is refused is not changed (WAL mode is written in its header).
    if (db.get("PRAGMA journal_mode = WAL")?.journal_mode !== "wal") throw new StateFileError(file, "SQLite could not put it in WAL mode");
    db.exec("PRAGMA synchronous = FULL");
    // After a checkpoint, the -wal file is cut back to 8 MiB (the seed's first save makes it large).
    db.exec("PRAGMA journal_size_limit = 8388608");
    return { db, ...(state ? { state } : {}) };
  } catch (error) {
    rollback(db, "ROLLBACK");
    db.close();
    if (error instanceof StateFileError) throw error;
    if (sqliteCode(error) === SQLITE_FULL) {
      throw new StateFileError(file, "its disk is full (SQLITE_FULL)", "Nothing was changed in it; free some space on its disk and start again.");
    }
    throw new StateFileError(file, describeSqliteError(error));
  }
}

const notNew = (file: string) =>
  new StateFileError(
    file,
    "it already exists, and a 1.0 state file is imported only into a new file",
    "Nothing was imported; name a file that does not exist yet.",
  );

/** The 1.0 state to import into `file`. A SQLite file is looked into once locked: one with no schema (an import stopped halfway) is still new. */
function readImport(file: string, importFrom: string, head: Buffer | undefined): State {
  if (head !== undefined && head.length > 0 && !isSqliteHeader(head)) throw notNew(file);
  return readV1StateFile(importFrom, (reason) => new StateFileError(importFrom, reason, "Nothing was imported."));
}

/** Refuses a file that is neither new, empty nor SQLite: a 1.0 state file is told apart, with the way to import it. */
function refuseOtherFiles(file: string, head: Buffer | undefined): void {
  const empty = head === undefined || head.length === 0;
  if (empty ? !isV1StateFile(file, head) : isSqliteHeader(head)) return;
  if (isV1StateFile(file, head)) {
    throw new StateFileError(
      file,
      "it is a 1.0 state file (a JSON snapshot and journal); the simulator now keeps its state in SQLite",
      `It was left untouched. Import it once into a new file: dms simulate --state NEW.sqlite --import-state ${file}`,
    );
  }
  throw new StateFileError(file, "it is not a SQLite database (it is damaged, or another program's file)");
}

const SQLITE_FULL = 13;

/**
 * The file's tables are the schema's, with the schema's columns, and it has no trigger: a table or
 * column changed by hand is refused by name instead of failing a read as "no such column", and a
 * trigger (which could change or drop rows behind every write) would make the disk hold what
 * memory does not.
 */
function checkShape(db: Connection, file: string): void {
  const objects = db.all("SELECT type, name FROM sqlite_schema WHERE type IN ('table', 'trigger')");
  const trigger = objects.find((row) => row.type === "trigger");
  if (trigger) throw new StateFileError(file, `it has a trigger (${String(trigger.name)}), which the simulator's schema does not`);
  const tables = new Set(objects.filter((row) => row.type === "table").map((row) => String(row.name)));
  for (const [table, columns] of SCHEMA_TABLES) {
    if (!tables.has(table)) throw new StateFileError(file, `its table ${table} is missing`);
    const found = db.all(`SELECT name FROM pragma_table_info('${table}')`).map((row) => String(row.name));
    const missing = columns.filter((column) => !found.includes(column));
    const extra = found.filter((column) => !columns.includes(column));
    if (missing.length > 0 || extra.length > 0) {
      const said = [missing.length > 0 ? `no column ${missing.join(", ")}` : "", extra.length > 0 ? `a column ${extra.join(", ")} it does not have` : ""];
      throw new StateFileError(file, `its table ${table} is not the simulator's (${said.filter(Boolean).join("; ")})`);
    }
  }
}

/** SQLite's quick_check (which also checks every row against the schema's NOT NULL and CHECK constraints) and the foreign keys. */
function checkIntegrity(db: Connection, file: string): void {
  const found = db.all("PRAGMA quick_check").map((row) => String(row.quick_check));
  if (found.length !== 1 || found[0] !== "ok") {
    const rows = found.every((line) => /^(CHECK constraint failed|NULL value in)/.test(line));
    throw new StateFileError(file, `${rows ? "rows break the schema's constraints" : "it is damaged"} (${found.slice(0, 3).join("; ")})`);
  }
  const orphan = db.get("PRAGMA foreign_key_check");
  if (orphan) throw new StateFileError(file, `row ${orphan.rowid} of ${orphan.table} belongs to no deployment`);
}

function pragma(db: Connection, name: string): number {
  return Number(db.get(`PRAGMA ${name}`)?.[name]);
}
