// What the main thread and the SQLite worker say to each other (types only: worker.ts imports them,
// and Node erases type imports when it runs that file as it is). Every message is structured-cloned.
import type { SQLInputValue, SQLOutputValue } from "node:sqlite";
import type { MessagePort } from "node:worker_threads";

/** One statement of a write and its parameters; the worker prepares each statement once. */
export type Write = [sql: string, params: SQLInputValue[]];

/** A row as node:sqlite reads it: column name to value. */
export type Row = Record<string, SQLOutputValue>;

/** What the main thread asks of the worker. */
export type Request =
  | { op: "open"; file: string }
  | { op: "exec"; sql: string }
  | { op: "get"; sql: string; params: SQLInputValue[] }
  | { op: "all"; sql: string; params: SQLInputValue[] }
  /** Statements run inside the transaction the opening checks hold open. */
  | { op: "write"; list: Write[] }
  /** One transaction: each inner list is one append, in a savepoint of its own. */
  | { op: "commit"; appends: Write[][] }
  | { op: "close" };

/** The one request that comes as a message (on parentPort) rather than as a synchronous call. */
export type CommitRequest = Extract<Request, { op: "commit" }>;

/** A failed request: the error's message and node:sqlite's result code, when it has one. */
export interface WorkerError {
  message: string;
  errcode?: number;
}

/** The outcome of a commit: `failed` when the whole transaction failed, else one entry per append (null: saved). */
export type CommitOutcome = { failed: WorkerError } | { results: (WorkerError | null)[] };

/** The answer's value to each request. */
export interface Answers {
  open: null;
  exec: null;
  get: Row | undefined;
  all: Row[];
  write: null;
  commit: CommitOutcome;
  close: null;
}

export type Reply<R extends Request = Request> = { value: Answers[R["op"]] } | { error: WorkerError };

/** The worker's workerData: `port` answers synchronous calls, each one signalled through `signal`. */
export interface WorkerData {
  signal: Int32Array;
  port: MessagePort;
}
