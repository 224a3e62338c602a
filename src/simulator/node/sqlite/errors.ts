// What goes wrong with the state file, in words a person can act on: StateFileError at start (the
// file is left as it was), the core's StorageError for a write that failed (507 when the disk is
// full), and SQLite's result codes by name.
import { StorageError } from "../../core/changes.js";

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

/** The primary SQLite result code of an error from node:sqlite (or of one the worker passed on), if it is one. */
export function sqliteCode(error: unknown): number | undefined {
  const code = typeof error === "object" && error !== null && "errcode" in error ? error.errcode : undefined;
  return typeof code === "number" ? code & 0xff : undefined;
}

/** An error's message; also of the plain { message } objects the worker sends back. */
export function messageOf(error: unknown): string {
  return typeof error === "object" && error !== null && "message" in error && typeof error.message === "string" ? error.message : String(error);
}

/** The code of a failed file system call (ENOENT, EACCES...), if it has one. */
export function errnoCode(error: unknown): string | undefined {
  return error instanceof Error && "code" in error && typeof error.code === "string" ? error.code : undefined;
}

export function describeSqliteError(error: unknown): string {
  const code = sqliteCode(error);
  const message = messageOf(error);
  return code === undefined ? message : `${message} (${SQLITE_NAMES[code] ?? `SQLite error ${code}`})`;
}

/** A failed write as the core's StorageError: 507 when the disk is full, else 500. */
export function storageError(error: unknown, file: string): StorageError {
  const code = sqliteCode(error);
  const name = code === undefined ? undefined : (SQLITE_NAMES[code] ?? `SQLITE_${code}`);
  return new StorageError(`The state file ${file} could not be written: ${describeSqliteError(error)}`, name, code === 13 ? 507 : 500);
}
