// One simulator per state file: the connection takes the file's exclusive lock at start and, in
// SQLite's exclusive locking mode, holds it until close, so SQLite itself refuses a second simulator
// (or any other program) on the same file.
import type { Connection } from "./connection.js";
import { describeSqliteError, messageOf, StateFileError, sqliteCode } from "./errors.js";

const SQLITE_BUSY = 5;

const busy = (file: string) =>
  new StateFileError(
    file,
    "another simulator (or another program) has it open",
    "One simulator per state file: stop the other one, or give this one a file of its own.",
  );

/**
 * A connection holding the file's exclusive lock, inside a transaction. A start that finds the lock
 * taken tries twice more, a few random milliseconds apart, after closing its connection: two starts
 * that meet a hot journal (a first start killed mid-write) both need the EXCLUSIVE lock to roll it
 * back, and each may fail while the other holds its SHARED one; closing lets the other through.
 */
export function openLocked(connect: () => Connection, file: string): Connection {
  for (let attempt = 1; ; attempt++) {
    let db: Connection;
    try {
      db = connect();
    } catch (error) {
      throw new StateFileError(file, `it cannot be opened (${messageOf(error)})`);
    }
    let locked: boolean;
    try {
      locked = lockExclusively(db);
    } catch (error) {
      rollback(db, "ROLLBACK");
      db.close();
      if (sqliteCode(error) === SQLITE_BUSY) throw busy(file);
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
function lockExclusively(db: Connection): boolean {
  db.exec("PRAGMA locking_mode = EXCLUSIVE");
  try {
    db.exec("BEGIN IMMEDIATE");
  } catch (error) {
    if (sqliteCode(error) === SQLITE_BUSY) return false;
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

/** Runs `sql` (a ROLLBACK) if there is anything to undo. */
export function rollback(db: Connection, sql: string): void {
  try {
    db.exec(sql);
  } catch {
    // No transaction open (SQLite rolled it back itself): nothing to undo.
  }
}

/** A pause of the thread, for the few milliseconds between attempts at the lock at start. */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
