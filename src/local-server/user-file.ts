// Paths a user names (--state, --import-state, SIMULATOR_STATE, the Vite plugin's `state`,
// GITHUB_OUTPUT, GITHUB_STEP_SUMMARY) are looked at before they are opened: open() of a FIFO waits
// for a writer forever, and a directory, socket or device cannot hold a file's bytes. lstat/stat
// say what the path is without opening it; the open that follows adds O_NONBLOCK and checks the
// descriptor again, so a path swapped for a FIFO in between still cannot block.
import { closeSync, constants, fstatSync, lstatSync, openSync, type Stats, statSync } from "node:fs";
import { dirname } from "node:path";

/** What a path is, when it is not something a file can be read from or written to; the message says what it is. */
export class UnusableFileError extends Error {
  override readonly name = "UnusableFileError";
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/** "a FIFO (named pipe)", "a directory", ...: what a stat says the path is. */
export function kindOf(stats: Stats): string {
  if (stats.isFile()) return "a regular file";
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a FIFO (named pipe)";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice()) return "a character device";
  if (stats.isBlockDevice()) return "a block device";
  if (stats.isSymbolicLink()) return "a symbolic link";
  return "not a regular file";
}

function code(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
}

/**
 * "file" when `path` is a regular file (through symlinks), "missing" when nothing is there and it
 * can be created (its directory exists and is one). Anything else throws UnusableFileError saying
 * what the path is. Nothing is opened.
 */
export function checkUserFile(path: string): "file" | "missing" {
  let link: Stats;
  try {
    link = lstatSync(path);
  } catch (error) {
    // ENOTDIR: a path under a file; said below as what its directory is.
    if (code(error) !== "ENOENT" && code(error) !== "ENOTDIR") throw new UnusableFileError(path, `it cannot be examined (${code(error)})`);
    let parent: Stats;
    try {
      parent = statSync(dirname(path));
    } catch (parentError) {
      throw new UnusableFileError(path, `it does not exist and cannot be created: its directory ${dirname(path)} is missing (${code(parentError)})`);
    }
    if (!parent.isDirectory()) {
      throw new UnusableFileError(path, `it does not exist and cannot be created: ${dirname(path)} is ${kindOf(parent)}, not a directory`);
    }
    return "missing";
  }
  if (link.isFile()) return "file";
  if (!link.isSymbolicLink()) throw new UnusableFileError(path, `it is ${kindOf(link)}, not a regular file`);
  let target: Stats;
  try {
    target = statSync(path);
  } catch (error) {
    const why = code(error) === "ENOENT" ? "a missing file (a dangling link)" : `something that cannot be examined (${code(error)})`;
    throw new UnusableFileError(path, `it is a symbolic link to ${why}`);
  }
  if (target.isFile()) return "file";
  throw new UnusableFileError(path, `it is a symbolic link to ${kindOf(target)}, not to a regular file`);
}

/**
 * Opens a path checked with checkUserFile, without blocking (O_NONBLOCK), and checks the
 * descriptor: a regular file or UnusableFileError. `flags` are the other open flags.
 */
export function openUserFile(path: string, flags: number, mode?: number): number {
  const fd = openSync(path, flags | constants.O_NONBLOCK, mode);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new UnusableFileError(path, `it is ${kindOf(stats)}, not a regular file`);
    return fd;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}
