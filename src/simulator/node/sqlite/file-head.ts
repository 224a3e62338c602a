// The state file before SQLite opens it: its first bytes (what kind of file it is), and a new file
// created readable by its owner only, since it holds secret values in clear (SQLite gives its -wal
// file the same mode). Anything but a regular file is refused before it is opened.
import { closeSync, constants, readSync } from "node:fs";
import { checkUserFile, openUserFile, UnusableFileError } from "../../../local-server/user-file.js";
import { errnoCode, messageOf, StateFileError } from "./errors.js";

const SQLITE_HEADER = "SQLite format 3\0";

export const isSqliteHeader = (head: Buffer) => head.subarray(0, 16).toString("latin1") === SQLITE_HEADER;

/** The first bytes of the file (up to 256), or undefined when there is no file. */
export function firstBytes(file: string): Buffer | undefined {
  let fd: number;
  try {
    if (checkUserFile(file) === "missing") return undefined;
    fd = openUserFile(file, constants.O_RDONLY);
  } catch (error) {
    if (error instanceof UnusableFileError) throw new StateFileError(file, error.reason, "Name a regular file, or a file that does not exist yet.");
    const code = errnoCode(error);
    if (code === "ENOENT") return undefined;
    throw new StateFileError(file, `it cannot be read (${code ?? messageOf(error)})`);
  }
  try {
    const buffer = Buffer.alloc(256);
    return buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, 0));
  } finally {
    closeSync(fd);
  }
}

/** Creates the file, 0600, before SQLite opens it. */
export function createPrivate(file: string): void {
  try {
    closeSync(openUserFile(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600));
  } catch (error) {
    if (error instanceof UnusableFileError) throw new StateFileError(file, error.reason);
    const code = errnoCode(error);
    // Created by someone else in the meantime: opening it decides (its lock, its contents).
    if (code !== "EEXIST") throw new StateFileError(file, `it cannot be created (${code ?? messageOf(error)})`);
  }
}
