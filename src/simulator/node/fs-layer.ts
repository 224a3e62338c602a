// The few file operations the state file needs, as one small interface, so tests can put a layer
// in between that fails on purpose (short writes, ENOSPC, EROFS, EIO) without touching a real disk.
// All of them are asynchronous: a slow fsync runs in libuv's thread pool while the event loop keeps
// answering reads.
import * as fs from "node:fs";

export interface FsLayer {
  /** Node's open flags: "r" to read, "r+" to write at a position, "wx" to create a new file. */
  open(path: string, flags: string): Promise<number>;
  /** Writes `length` bytes of `buffer` from `offset` at file `position`; resolves with how many were written, which may be fewer. */
  write(fd: number, buffer: Uint8Array, offset: number, length: number, position: number): Promise<number>;
  fsync(fd: number): Promise<void>;
  ftruncate(fd: number, length: number): Promise<void>;
  close(fd: number): Promise<void>;
  /** Rejects with an error whose `code` is ENOENT when the file does not exist. */
  readFile(path: string): Promise<Buffer>;
  rename(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
  readdir(dir: string): Promise<string[]>;
  /** Makes a rename or a new file in `dir` durable; a no-op where directories cannot be opened (Windows). */
  syncDirectory(dir: string): Promise<void>;
}

function call<T>(run: (done: (error: NodeJS.ErrnoException | null, value?: T) => void) => void): Promise<T> {
  return new Promise((resolve, reject) => run((error, value) => (error ? reject(error) : resolve(value as T))));
}

/** The real file system (node:fs). */
export const nodeFs: FsLayer = {
  open: (path, flags) => call((done) => fs.open(path, flags, 0o644, done)),
  write: (fd, buffer, offset, length, position) => call((done) => fs.write(fd, buffer, offset, length, position, done)),
  fsync: (fd) => call((done) => fs.fsync(fd, done)),
  ftruncate: (fd, length) => call((done) => fs.ftruncate(fd, length, done)),
  close: (fd) => call((done) => fs.close(fd, done)),
  readFile: (path) => call((done) => fs.readFile(path, done)),
  rename: (from, to) => call((done) => fs.rename(from, to, done)),
  unlink: (path) => call((done) => fs.unlink(path, done)),
  readdir: (dir) => call((done) => fs.readdir(dir, done)),
  async syncDirectory(dir) {
    let fd: number;
    try {
      fd = await nodeFs.open(dir, "r");
    } catch {
      return;
    }
    try {
      await nodeFs.fsync(fd);
    } catch (error) {
      // Some file systems refuse fsync on a directory (EINVAL); the rename is atomic all the same.
      if ((error as NodeJS.ErrnoException).code !== "EINVAL") throw error;
    } finally {
      await nodeFs.close(fd);
    }
  },
};
