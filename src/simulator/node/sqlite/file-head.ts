// The state file before SQLite opens it: its first bytes (what kind of file it is), and a new file
// created readable by its owner only, since it holds secret values in clear (SQLite gives its -wal
// file the same mode). Anything but a regular file is refused before it is opened.
import { accessSync, closeSync, constants, readSync, statSync } from "node:fs";
import { dirname } from "node:path";
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

/**
 * The simulator writes every change to the file, and SQLite keeps its write-ahead log (FILE-wal)
 * in the same folder: a file (when it exists) or a folder that cannot be written is refused by
 * name before SQLite opens it, which would report it as "disk I/O error" or "attempt to write a
 * readonly database".
 */
export function checkWritable(file: string, exists: boolean): void {
  const folder = dirname(file);
  const refused = (path: string) => {
    try {
      accessSync(path, constants.W_OK);
      return undefined;
    } catch (error) {
      const code = errnoCode(error);
      // A folder that is missing is reported by the check of the path itself.
      return code === "ENOENT" ? undefined : (code ?? messageOf(error));
    }
  };
  const advice = "Nothing was changed; make it writable, or name a file on a writable disk.";
  const fileCode = exists ? refused(file) : undefined;
  if (fileCode) throw new StateFileError(file, `it cannot be written (${fileCode}${fileCode === "EROFS" ? ": its file system is read-only" : ""})`, advice);
  const folderCode = refused(folder);
  if (folderCode) {
    throw new StateFileError(
      file,
      `its folder ${folder} cannot be written (${folderCode}${folderCode === "EROFS" ? ": its file system is read-only" : ""}), and SQLite keeps its write-ahead log there`,
      advice,
    );
  }
}

/** Which file the path names now (device and inode, through symlinks), or undefined when it names none. */
export function fileIdentity(file: string): string | undefined {
  try {
    const stat = statSync(file);
    return `${stat.dev}:${stat.ino}`;
  } catch {
    return undefined;
  }
}
