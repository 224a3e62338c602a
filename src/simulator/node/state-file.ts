// The state file (`--state FILE`): a snapshot (FILE, the whole state as JSON) and an append-only
// journal beside it (FILE.journal) of the changes made since. A write is acknowledged only once its
// journal record is written in full and fsynced; writes that arrive while an fsync is running wait
// and share the next one (group commit), in the order they came. The journal is folded into a new
// snapshot at start and whenever it grows past a bound; the snapshot is replaced by writing a
// temporary file, fsyncing it, renaming it over FILE and fsyncing the directory. FILE.lock holds the
// process id of the simulator using the files while it runs.
//
// Journal record, one per append: `<byte length of json> <crc32 of json, 8 hex digits> <json>\n`,
// where json is the array of changes. JSON text holds no raw newline, so a record is one line; a
// line that is cut short or fails its checksum is a torn write.
import { basename, dirname, join } from "node:path";
import { crc32 } from "node:zlib";
import { applyChange, indexState, StorageError, type Persistence, type StateChange } from "../core/changes.js";
import type { State } from "../core/model.js";
import { nodeFs, type FsLayer } from "./fs-layer.js";

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

export interface StateFileOptions {
  /** The file operations to use; tests pass one that fails on purpose. Default: node:fs. */
  fs?: FsLayer;
  /** Fold the journal into the snapshot once it is this long. Default 8 MiB. */
  compactBytes?: number;
  /** Where warnings go (a torn last record, a failed compaction). Default: stderr. */
  warn?: (line: string) => void;
}

export const DEFAULT_COMPACT_BYTES = 8 * 1024 * 1024;
/** How much snapshot text is built between two writes, so a large compaction never holds the event loop for long. */
const SNAPSHOT_CHUNK_CHARS = 1 << 20;
const NEWLINE = 0x0a;

export function journalPath(file: string): string {
  return `${file}.journal`;
}

/** Holds the process id of the simulator using the state file, so a second one does not write beside it. */
export function lockPath(file: string): string {
  return `${file}.lock`;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === "EPERM"; // it exists, under another user
  }
}

/** Temporary snapshot files of this state file: `.<name>.<pid>.<n>.tmp` beside it. */
function isTempOf(file: string, entry: string): boolean {
  return entry.startsWith(`.${basename(file)}.`) && entry.endsWith(".tmp");
}

// --- records -----------------------------------------------------------------------------------

/** JSON would write Infinity and NaN as null, so what a restart reads back would differ from memory (a null clock would not even load). */
function finiteOnly(key: string, value: unknown): unknown {
  if (typeof value === "number" && !Number.isFinite(value)) throw new RangeError(`"${key}" is ${value}, which JSON cannot hold`);
  return value;
}

export function encodeRecord(changes: StateChange[]): Buffer {
  const json = Buffer.from(JSON.stringify(changes, finiteOnly));
  const header = Buffer.from(`${json.length} ${crc32(json).toString(16).padStart(8, "0")} `);
  return Buffer.concat([header, json, Buffer.of(NEWLINE)]);
}

export interface ParsedJournal {
  records: StateChange[][];
  /** Bytes up to the end of the last good record. */
  goodLength: number;
  /** A record cut short at the end of the file (a crash while it was being written); ignored. */
  torn?: { offset: number; reason: string };
}

/** Reads journal bytes. Throws StateFileError for any damage other than a torn last record. */
export function parseJournal(bytes: Buffer, file: string): ParsedJournal {
  const records: StateChange[][] = [];
  let offset = 0;
  while (offset < bytes.length) {
    const end = bytes.indexOf(NEWLINE, offset);
    const line = bytes.subarray(offset, end === -1 ? bytes.length : end);
    const read = end === -1 ? { damage: "it ends before its newline" } : readLine(line);
    if ("damage" in read) {
      // Only the very last line can be a write that a crash cut short; damage anywhere else is not
      // something this program wrote, so nothing after it can be trusted either.
      if (end === -1 || end === bytes.length - 1) return { records, goodLength: offset, torn: { offset, reason: read.damage } };
      throw new StateFileError(file, `the journal record at byte ${offset} is damaged (${read.damage}) and is not the last one`);
    }
    const changes = read.value;
    const problem = changesProblem(changes);
    if (problem) throw new StateFileError(file, `the journal record at byte ${offset} ${problem}`);
    records.push(changes as StateChange[]);
    offset = end + 1;
  }
  return { records, goodLength: offset };
}

/** The JSON of an intact record, or why the line is not one (length or checksum wrong). */
function readLine(line: Buffer): { value: unknown } | { damage: string } {
  const header = /^(\d{1,15}) ([0-9a-f]{8}) /.exec(line.subarray(0, 32).toString("latin1"));
  if (!header) return { damage: "it has no record header" };
  const json = line.subarray(header[0].length);
  if (json.length !== Number(header[1])) return { damage: `it holds ${json.length} bytes where its header says ${header[1]}` };
  if (crc32(json) !== parseInt(header[2]!, 16)) return { damage: "its checksum does not match" };
  try {
    return { value: JSON.parse(json.toString("utf8")) };
  } catch {
    return { damage: "it is not valid JSON" };
  }
}

function changesProblem(value: unknown): string | undefined {
  if (!Array.isArray(value)) return "is not a list of changes";
  for (const change of value as Partial<StateChange & Record<string, any>>[]) {
    const ok =
      change !== null &&
      typeof change === "object" &&
      ((change.op === "put_deployment" && recordProblem(change.record, 0) === undefined) ||
        (change.op === "put_listener" && typeof change.listener?.id === "string") ||
        (change.op === "set_clock" && typeof change.clock_offset_ms === "number" && typeof change.last_created_ms === "number") ||
        (change.op === "replace_state" && stateProblem(change.state) === undefined));
    if (!ok) return `holds a change the simulator does not know: ${JSON.stringify(change).slice(0, 120)}`;
  }
  return undefined;
}

function recordProblem(d: any, i: number): string | undefined {
  if (!d || typeof d !== "object" || !d.deployment || typeof d.deployment.id !== "string" || !Array.isArray(d.revisions)) {
    return `deployment ${i} is malformed`;
  }
  return undefined;
}

/** Why a parsed snapshot is not a simulator state, or undefined when it is one. */
export function stateProblem(value: unknown): string | undefined {
  if (!value || typeof value !== "object" || Array.isArray(value)) return "it does not hold a JSON object";
  const s = value as Partial<State>;
  if (s.format !== "dms-simulator-state") return 'it is not a simulator state file (no "format": "dms-simulator-state")';
  if (s.version !== 1) return `its version ${JSON.stringify(s.version)} is not supported (expected 1)`;
  for (const key of ["deployments", "listeners", "providers"] as const) {
    if (!Array.isArray(s[key])) return `"${key}" is not an array`;
  }
  if (!s.connections || typeof s.connections !== "object") return '"connections" is missing';
  if (!s.repositories || typeof s.repositories !== "object") return '"repositories" is missing';
  if (typeof s.clock_offset_ms !== "number" || typeof s.last_created_ms !== "number") return "the clock fields are missing";
  for (const [i, d] of s.deployments!.entries()) {
    const problem = recordProblem(d, i);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * The text of JSON.stringify(state), in pieces of about SNAPSHOT_CHUNK_CHARS: arrays (10,000
 * deployments) are written item by item, so no single step serializes the whole state.
 */
export function* snapshotText(state: State): Generator<string> {
  let out = "{";
  let first = true;
  for (const [key, value] of Object.entries(state)) {
    if (value === undefined) continue;
    out += `${first ? "" : ","}${JSON.stringify(key)}:`;
    first = false;
    if (!Array.isArray(value)) {
      out += JSON.stringify(value);
      continue;
    }
    out += "[";
    for (let i = 0; i < value.length; i++) {
      out += (i ? "," : "") + (JSON.stringify(value[i]) ?? "null");
      if (out.length >= SNAPSHOT_CHUNK_CHARS) {
        yield out;
        out = "";
      }
    }
    out += "]";
  }
  yield `${out}}`;
}

// --- the persistence ---------------------------------------------------------------------------

function errorCode(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === "string" ? code : undefined;
}

function storageError(action: string, error: unknown): StorageError {
  const code = errorCode(error);
  const full = code === "ENOSPC" || code === "EDQUOT";
  return new StorageError(`${action}: ${full ? "the disk is full" : ((error as Error)?.message ?? String(error))}`, code, full ? 507 : 500);
}

/** Writes all of `bytes` at `position`, continuing after short writes; a write that makes no progress fails. */
async function writeFully(fs: FsLayer, fd: number, bytes: Uint8Array, position: number): Promise<void> {
  let done = 0;
  while (done < bytes.length) {
    const n = await fs.write(fd, bytes, done, bytes.length - done, position + done);
    if (!(n > 0)) throw Object.assign(new Error(`a write made no progress after ${done} of ${bytes.length} bytes`), { code: "EIO" });
    done += n;
  }
}

interface Waiting {
  bytes: Buffer;
  resolve: () => void;
  reject: (error: StorageError) => void;
}

export function createStateFilePersistence(file: string, options: StateFileOptions = {}): Persistence {
  const fs = options.fs ?? nodeFs;
  const compactBytes = options.compactBytes ?? DEFAULT_COMPACT_BYTES;
  if (typeof compactBytes !== "number" || !(compactBytes > 0)) {
    throw new TypeError(`createStateFilePersistence: compactBytes must be a number > 0, not ${String(compactBytes)}.`);
  }
  const warn = options.warn ?? ((line: string) => console.error(line));
  const journal = journalPath(file);
  const dir = dirname(file);
  let tempCount = 0;

  let currentState: (() => State) | undefined;
  let fd: number | undefined;
  /** The journal's length on disk up to the last acknowledged record; nothing of a failed write stays past it. */
  let length = 0;
  /** Bytes past `length` left by a torn record or a failed write, cut away before the next write. */
  let dirtyTail = false;
  /** The journal was created and its directory entry is not known to be on disk yet. */
  let newJournal = false;
  /** Set when a failed write could not be undone: the journal may hold an unacknowledged record. */
  let broken: StorageError | undefined;
  let closed = false;
  /** Appends before load() would write over a journal not read yet. */
  let loaded = false;
  let queue: Waiting[] = [];
  /** The batch being written, or the compaction running; appends wait behind it. */
  let running: Promise<void> | undefined;
  /** Compact once the journal is at least this long (raised after a failed compaction, so it is not retried on every write). */
  let compactAt = compactBytes;

  async function journalFd(): Promise<number> {
    if (fd === undefined) {
      try {
        fd = await fs.open(journal, "r+");
      } catch (error) {
        if (errorCode(error) !== "ENOENT") throw error;
        fd = await fs.open(journal, "wx");
        newJournal = true;
      }
      dirtyTail = true;
    }
    if (newJournal) {
      // A new file exists for sure only once its directory entry is on disk.
      await fs.syncDirectory(dir);
      newJournal = false;
    }
    if (dirtyTail) {
      await fs.ftruncate(fd, length);
      await fs.fsync(fd);
      dirtyTail = false;
    }
    return fd;
  }

  async function writeSnapshot(state: State): Promise<void> {
    const temp = join(dir, `.${basename(file)}.${process.pid}.${++tempCount}.tmp`);
    const tempFd = await fs.open(temp, "wx");
    let renamed = false;
    try {
      try {
        let position = 0;
        for (const text of snapshotText(state)) {
          const bytes = Buffer.from(text);
          await writeFully(fs, tempFd, bytes, position);
          position += bytes.length;
        }
        await fs.fsync(tempFd);
      } finally {
        await fs.close(tempFd);
      }
      await fs.rename(temp, file);
      renamed = true;
      await fs.syncDirectory(dir);
    } finally {
      if (!renamed) await fs.unlink(temp).catch(() => {});
    }
  }

  /**
   * Folds the journal into a new snapshot of the state, which must hold every record in the journal.
   * If this fails half-way nothing is lost: the journal's records are whole-object puts, so replaying
   * them over either the old or the new snapshot gives the same state.
   */
  async function compact(state: () => State): Promise<void> {
    try {
      await writeSnapshot(state());
      const handle = await journalFd();
      await fs.ftruncate(handle, 0);
      length = 0;
      await fs.fsync(handle);
      compactAt = compactBytes;
    } catch (error) {
      compactAt = length + compactBytes;
      warn(
        `Simulator state file ${file}: could not fold the journal into the snapshot (${(error as Error).message}); ` +
          `nothing is lost, the journal keeps every change and is replayed at the next start.`,
      );
    }
  }

  async function commit(batch: Waiting[]): Promise<void> {
    const bytes = batch.length === 1 ? batch[0]!.bytes : Buffer.concat(batch.map((w) => w.bytes));
    let failure: StorageError | undefined;
    try {
      const handle = await journalFd();
      dirtyTail = true;
      await writeFully(fs, handle, bytes, length);
      await fs.fsync(handle);
      dirtyTail = false;
      length += bytes.length;
    } catch (error) {
      failure = storageError(`The change could not be saved to ${journal}`, error);
      await undoFailedWrite(failure);
    }
    for (const waiting of batch) failure ? waiting.reject(failure) : waiting.resolve();
  }

  /** Cuts the journal back to its last acknowledged record, so a failed write leaves nothing of itself. */
  async function undoFailedWrite(failure: StorageError): Promise<void> {
    if (fd === undefined || !dirtyTail) return;
    try {
      await fs.ftruncate(fd, length);
      await fs.fsync(fd);
      dirtyTail = false;
    } catch (error) {
      broken = new StorageError(
        `The state journal ${journal} could not be cut back after a failed write (${failure.message}; then ${(error as Error).message}), ` +
          `so it may hold a change that was never acknowledged. Every write is refused from now on; restart the simulator.`,
        errorCode(error),
        500,
      );
      warn(broken.message);
    }
  }

  function pump(): void {
    if (running || queue.length === 0) return;
    const batch = queue;
    queue = [];
    running = commit(batch).then(afterBatch);
  }

  async function afterBatch(): Promise<void> {
    try {
      if (length >= compactAt && currentState && !broken) {
        // The core applies a batch's changes in the continuations of its appends; one macrotask later
        // they are all in the state, and appends queued meanwhile wait until the snapshot is written.
        await new Promise((resolve) => setImmediate(resolve));
        await compact(currentState);
      }
    } finally {
      // compact() reports its own failures, so nothing here rejects and the queue always moves on.
      running = undefined;
      if (broken) for (const waiting of queue.splice(0)) waiting.reject(broken);
      pump();
    }
  }

  /**
   * Two simulators on one state file would write over each other's journal (and a second one that
   * only fails later, on a port already in use, would already have folded the journal under the
   * first). The lock file holds the owner's process id; one left by a process that is gone is
   * taken over. Where no lock file can be made (a full or read-only disk), the simulator runs
   * without one and says so.
   */
  async function acquireLock(): Promise<boolean> {
    const lock = lockPath(file);
    for (let attempt = 0; attempt < 2; attempt++) {
      let lockFd: number;
      try {
        lockFd = await fs.open(lock, "wx");
      } catch (error) {
        if (errorCode(error) !== "EEXIST") {
          warn(
            `Simulator state file ${file}: could not create the lock file ${lock} (${(error as Error).message}); a second simulator on this file would not be noticed.`,
          );
          return false;
        }
        const owner = Number((await fs.readFile(lock).catch(() => Buffer.alloc(0))).toString("utf8").trim());
        if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isRunning(owner)) {
          throw new StateFileError(
            file,
            `another simulator, process ${owner}, is using it (${lock} holds its process id)`,
            `Nothing was changed; stop that simulator first, or if it is not a simulator, remove ${lock}.`,
          );
        }
        await fs.unlink(lock).catch(() => {});
        continue;
      }
      try {
        await writeFully(fs, lockFd, Buffer.from(`${process.pid}\n`), 0);
      } catch {
        // An empty lock file is taken over by the next start, as if stale; the run goes on.
      } finally {
        await fs.close(lockFd);
      }
      return true;
    }
    throw new StateFileError(file, `another simulator took ${lock} at the same moment`, "Nothing was changed; stop the other simulator first.");
  }

  let lockHeld = false;

  async function releaseLock(): Promise<void> {
    if (!lockHeld) return;
    lockHeld = false;
    await fs.unlink(lockPath(file)).catch(() => {});
  }

  return {
    async load() {
      lockHeld = await acquireLock();
      try {
        return await loadSaved();
      } catch (error) {
        await releaseLock();
        throw error;
      }
    },

    append(changes) {
      if (broken) return Promise.reject(broken);
      if (changes.length === 0) return Promise.resolve();
      if (closed || !loaded) {
        return Promise.reject(new StorageError(`The state file ${file} is ${closed ? "closed" : "not loaded yet"}`, undefined, 500));
      }
      let bytes: Buffer;
      try {
        bytes = encodeRecord(changes);
      } catch (error) {
        return Promise.reject(new StorageError(`The change cannot be written as JSON: ${(error as Error).message}`, undefined, 500));
      }
      return new Promise<void>((resolve, reject) => {
        queue.push({ bytes, resolve, reject });
        pump();
      });
    },

    attach(getState) {
      currentState = getState;
    },

    async close() {
      closed = true;
      while (running) await running;
      if (fd !== undefined) {
        const handle = fd;
        fd = undefined;
        await fs.close(handle);
      }
      await releaseLock();
    },
  };

  async function loadSaved(): Promise<State | undefined> {
    const snapshot = await readOrUndefined(file);
    const journalBytes = (await readOrUndefined(journal)) ?? Buffer.alloc(0);
    let state: State | undefined;
    if (snapshot) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(snapshot.toString("utf8"));
      } catch (error) {
        throw new StateFileError(file, `it is not valid JSON (${(error as Error).message})`);
      }
      const problem = stateProblem(parsed);
      if (problem) throw new StateFileError(file, problem);
      state = parsed as State;
    }
    const { records, goodLength, torn } = parseJournal(journalBytes, journal);
    let index = state && indexState(state);
    for (const changes of records) {
      for (const change of changes) {
        if (!state || !index) {
          if (change.op !== "replace_state") throw new StateFileError(journal, `it holds changes but there is no state file ${file} to apply them to`);
          state = change.state;
          index = indexState(state);
        } else {
          state = applyChange(state, change, index);
        }
      }
    }
    if (torn) {
      warn(
        `Simulator state file ${file}: the last record of ${journal} (from byte ${torn.offset}, ${torn.reason}) was cut short by a ` +
          `crash while it was being written; it was never acknowledged and is ignored.`,
      );
    }
    length = goodLength;
    dirtyTail = journalBytes.length > goodLength;

    for (const entry of await fs.readdir(dir).catch(() => [])) {
      if (isTempOf(file, entry)) await fs.unlink(join(dir, entry)).catch(() => {});
    }
    const loadedState = state;
    if (loadedState && journalBytes.length > 0) await compact(() => loadedState);
    loaded = true;
    return state;
  }

  async function readOrUndefined(path: string): Promise<Buffer | undefined> {
    try {
      return await fs.readFile(path);
    } catch (error) {
      if (errorCode(error) === "ENOENT") return undefined;
      throw new StateFileError(path, (error as Error).message);
    }
  }
}
