// Writes through persistence: plan the changes on the live state (without changing it), hand them
// to `Persistence.append`, and apply them only once that resolved, in the same continuation, so no
// request ever sees a change that is not saved. Writes to one deployment (or listener) wait for each
// other, so each plans on the state the previous one left; writes to different ones overlap, so
// persistence can save them together. A reset waits for every write and every write waits for it.
import type { Persistence, StorageError } from "./changes.js";
import { problem, type Reply } from "./reply.js";
import type { Plan, Store } from "./store/index.js";

/** The key of writes that touch everything (reset). */
export const EVERYTHING = "*";

export class Writer {
  private tails = new Map<string, Promise<void>>();
  private everything: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: Store,
    private readonly persistence: Persistence | undefined,
  ) {}

  /**
   * Runs one write: `plan` (a Reply from it is an answer without a write, such as a 404) and then
   * `answer` on the applied result. Without persistence it all happens at once, synchronously.
   */
  write<T>(key: string, instance: string, plan: () => Plan<T> | Reply, answer: (result: T) => Reply): Reply | Promise<Reply> {
    const persistence = this.persistence;
    if (!persistence) {
      const planned = plan();
      if (!isPlan(planned)) return planned;
      this.store.apply(planned.changes);
      return answer(planned.result);
    }
    return this.queue(key, async () => {
      this.store.tick();
      const planned = plan();
      if (!isPlan(planned)) return planned;
      try {
        await persistence.append(planned.changes);
      } catch (error) {
        return storageProblem(error, instance);
      }
      this.store.apply(planned.changes);
      return answer(planned.result);
    });
  }

  /** Resolves once every write started so far is settled. */
  async idle(): Promise<void> {
    await Promise.all([this.everything, ...this.tails.values()]);
  }

  private queue<T>(key: string, task: () => Promise<T>): Promise<T> {
    const before = key === EVERYTHING ? this.idle() : Promise.all([this.everything, this.tails.get(key)]);
    const done = before.then(task);
    const settled = done.then(
      () => {},
      () => {},
    );
    if (key === EVERYTHING) {
      this.everything = settled;
      this.tails.clear();
    } else {
      this.tails.set(key, settled);
      settled.then(() => {
        if (this.tails.get(key) === settled) this.tails.delete(key);
      });
    }
    return done;
  }
}

function isPlan<T>(value: Plan<T> | Reply): value is Plan<T> {
  return Array.isArray((value as Plan<T>).changes);
}

/** A write that could not be saved: 507 for a full disk, else 500, and nothing of it was applied. */
function storageProblem(error: unknown, instance: string): Reply {
  // By its status, not instanceof: the adapter may come from another copy of this package.
  if ((error as Partial<StorageError> | undefined)?.status === 507) {
    return problem("insufficient-storage", "The simulator could not save the change: its storage is full. Nothing was changed.", instance);
  }
  return problem("internal", "The simulator could not save the change. Nothing was changed.", instance);
}
