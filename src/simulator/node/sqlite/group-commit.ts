// Group commit: appends made before a turn of the event loop ends share one commit, and while a
// commit is on its way to the disk every append waits for the next one. Each append is a savepoint
// of that commit (worker.ts), so a write that fails is undone alone, and one fsync'd WAL commit
// saves all the others.
import { type StateChange, StorageError } from "../../core/changes.js";
import type { SqliteWorker } from "./connection.js";
import { messageOf, storageError } from "./errors.js";
import type { Write } from "./protocol.js";
import { writes } from "./writes.js";

export interface GroupCommit {
  /** Resolves once the changes are committed; rejects with a StorageError when none of them is. */
  append(changes: StateChange[]): Promise<void>;
  /** Resolves once every append made so far is settled. */
  settled(): Promise<void>;
}

type Item = { changes: StateChange[]; resolve: () => void; reject: (error: unknown) => void };

/**
 * Commits to the worker that `connection` returns; none (before load, after close) rejects every
 * append, and so does a `refusal` returned by `check` before a commit (the file is gone, say).
 */
export function createGroupCommit(
  file: string,
  connection: () => SqliteWorker | undefined,
  check: () => StorageError | undefined = () => undefined,
): GroupCommit {
  let queue: Item[] = [];
  let scheduled = false;
  let inFlight = false;
  let waiting: (() => void)[] = [];

  /** Resolves the waiting settled() calls once nothing is queued or on its way. */
  function whenIdle(): void {
    if (inFlight || queue.length > 0) return;
    const settle = waiting;
    waiting = [];
    for (const resolve of settle) resolve();
  }

  /** Sends every append queued so far as one commit; appends arriving meanwhile wait for the next one. */
  function send(): void {
    scheduled = false;
    if (inFlight || queue.length === 0) {
      whenIdle();
      return;
    }
    const batch = queue;
    queue = [];
    const worker = connection();
    const refusal = worker ? check() : new StorageError(`The state file ${file} is not open.`, undefined, 500);
    if (!worker || refusal) {
      for (const item of batch) item.reject(refusal);
      whenIdle();
      return;
    }
    const appends: Write[][] = [];
    const sent: Item[] = [];
    for (const item of batch) {
      try {
        const list: Write[] = [];
        for (const change of item.changes) writes(change, list);
        appends.push(list);
        sent.push(item);
      } catch (error) {
        // A change JSON cannot hold (a non-finite number) fails its own write only.
        item.reject(new StorageError(`The state file ${file} could not be written: ${messageOf(error)}`, undefined, 500));
      }
    }
    if (sent.length === 0) {
      send();
      return;
    }
    inFlight = true;
    worker.commit(appends).then((outcome) => {
      inFlight = false;
      sent.forEach((item, i) => {
        const error = "failed" in outcome ? outcome.failed : outcome.results[i];
        if (error) item.reject(storageError(error, file));
        else item.resolve();
      });
      send();
    });
  }

  return {
    append(changes) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ changes, resolve, reject });
        if (!scheduled && !inFlight) {
          scheduled = true;
          setImmediate(send);
        }
      });
    },
    settled() {
      if (!inFlight && queue.length === 0) return Promise.resolve();
      // Sent now rather than at the next turn: close() waits for them.
      if (!inFlight) send();
      return new Promise<void>((resolve) => {
        waiting.push(resolve);
        whenIdle();
      });
    },
  };
}
