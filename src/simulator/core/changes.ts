// The boundary between the simulator's core and its persistence: what a write changes, as data.
// The core computes the changes of a write, hands them to `Persistence.append`, and applies them in
// memory only once that resolved, synchronously in the promise's continuation (no other await in
// between), so memory never holds a change the disk does not. A change names one row (a deployment
// without its revisions, one revision, one listener, the clock), so what a write costs to save does
// not depend on how much history a deployment has. No Node imports: the core runs in browsers.
import type { DeploymentRecord, Listener, RevisionRecord, State } from "./model.js";

/** A deployment as one row: everything it holds but its revisions, which are rows of their own. */
export type DeploymentRow = Omit<DeploymentRecord, "revisions">;

export type StateChange =
  /** Insert or replace a deployment's own row, by `row.deployment.id`; its revisions are kept. New ones go last (the state keeps them oldest first). */
  | { op: "put_deployment"; row: DeploymentRow }
  /** Insert or replace one revision of a deployment, by `record.revision.id`. A new one goes last (creation order); a replaced one keeps its place. */
  | { op: "put_revision"; deployment_id: string; record: RevisionRecord }
  /** Drop one revision of a deployment (history trimming). */
  | { op: "delete_revision"; deployment_id: string; revision_id: string }
  /** Insert or replace a listener, by `id`. */
  | { op: "put_listener"; listener: Listener }
  /** The simulated clock (POST /_simulator/advance) and the created_at high-water mark. */
  | { op: "set_clock"; clock_offset_ms: number; last_created_ms: number }
  /** Everything at once (POST /_simulator/reset, the first save of the seed). */
  | { op: "replace_state"; state: State };

/** A write that could not be saved. Nothing of it was saved, and the core must not apply it. */
export class StorageError extends Error {
  override readonly name = "StorageError";
  constructor(
    message: string,
    /** The storage's error code, such as SQLITE_FULL, SQLITE_READONLY, SQLITE_IOERR, ENOSPC or EIO, when there is one. */
    readonly code: string | undefined,
    /** 507 when the storage is full, else 500. */
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
  /** Gives the adapter the core's current state (it is consistent with everything appended whenever no append is pending). Adapters that keep rows may ignore it. */
  attach(currentState: () => State): void;
  close(): Promise<void>;
}

/** The row of a deployment record, without its revisions. */
export function deploymentRow(record: DeploymentRecord): DeploymentRow {
  const { revisions: _revisions, ...row } = record;
  return row;
}
