// The boundary between the simulator's core and its persistence: what a write changes, as data.
// The core computes the changes of a write, hands them to `Persistence.append`, and applies them in
// memory only once that resolved, synchronously in the promise's continuation (no other await in
// between), so memory never holds a change the disk does not. Persistence adapters (the node state
// file) replay the same changes with `applyChange`. No Node imports: the core runs in browsers.
import type { DeploymentRecord, Listener, State } from "./model.js";

export type StateChange =
  /** Insert or replace a deployment with everything it owns (its revisions), by `deployment.id`. New ones go last (the state keeps them oldest first). */
  | { op: "put_deployment"; record: DeploymentRecord }
  /** Insert or replace a listener, by `id`. */
  | { op: "put_listener"; listener: Listener }
  /** The simulated clock (POST /_simulator/advance) and the created_at high-water mark. */
  | { op: "set_clock"; clock_offset_ms: number; last_created_ms: number }
  /** Everything at once (POST /_simulator/reset). */
  | { op: "replace_state"; state: State };

/** A write that could not be saved. Nothing of it was saved, and the core must not apply it. */
export class StorageError extends Error {
  override readonly name = "StorageError";
  constructor(
    message: string,
    /** The system error code, such as ENOSPC, EROFS or EIO, when there is one. */
    readonly code: string | undefined,
    /** 507 when the disk is full (ENOSPC, EDQUOT), else 500. */
    readonly status: 500 | 507,
  ) {
    super(message);
  }
}

export interface Persistence {
  /** The saved state, or undefined when there is none yet (the core starts from the seed and saves it). Throws when the saved state is unusable, naming the file. */
  load(): Promise<State | undefined>;
  /**
   * Makes the changes durable and resolves once they are; rejects with a StorageError when they could
   * not be saved, and then none of them is. Calls may overlap; their order is kept.
   */
  append(changes: StateChange[]): Promise<void>;
  /** Gives the adapter the core's current state, for compaction (it is consistent with everything appended whenever no append is pending). */
  attach(currentState: () => State): void;
  close(): Promise<void>;
}

/** Where each deployment and listener sits in a state's arrays, so replaying many changes stays linear. */
export interface StateIndex {
  deployments: Map<string, number>;
  listeners: Map<string, number>;
}

export function indexState(state: State): StateIndex {
  return {
    deployments: new Map(state.deployments.map((d, i) => [d.deployment.id, i])),
    listeners: new Map(state.listeners.map((l, i) => [l.id, i])),
  };
}

/**
 * Applies one change to a plain state, the way replay after a restart does. With an `index` (from
 * `indexState` of the same state) the lookups are by map instead of a scan, and the index is kept up
 * to date, also across `replace_state`.
 */
export function applyChange(state: State, change: StateChange, index?: StateIndex): State {
  switch (change.op) {
    case "put_deployment": {
      const id = change.record.deployment.id;
      const i = index ? (index.deployments.get(id) ?? -1) : state.deployments.findIndex((d) => d.deployment.id === id);
      if (i >= 0) {
        state.deployments[i] = change.record;
      } else {
        state.deployments.push(change.record);
        index?.deployments.set(id, state.deployments.length - 1);
      }
      return state;
    }
    case "put_listener": {
      const id = change.listener.id;
      const i = index ? (index.listeners.get(id) ?? -1) : state.listeners.findIndex((l) => l.id === id);
      if (i >= 0) {
        state.listeners[i] = change.listener;
      } else {
        state.listeners.push(change.listener);
        index?.listeners.set(id, state.listeners.length - 1);
      }
      return state;
    }
    case "set_clock":
      state.clock_offset_ms = change.clock_offset_ms;
      state.last_created_ms = change.last_created_ms;
      return state;
    case "replace_state":
      if (index) Object.assign(index, indexState(change.state));
      return change.state;
  }
}
