// The main thread's side of the SQLite worker (worker.ts): the connection as synchronous calls for
// the checks at start and for close (the thread waits on a SharedArrayBuffer signal and takes the
// answer with receiveMessageOnPort, so the opening code reads like the single-threaded code it is),
// and commits as messages, answered while the event loop goes on.
import { once } from "node:events";
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from "node:worker_threads";
import type { Answers, CommitOutcome, CommitRequest, Reply, Request, Row, WorkerData, Write } from "./protocol.js";
// A type import of the worker also makes tsc compile worker.ts wherever it compiles this file: the
// worker is started by URL, which tsc does not follow.
import type { WorkerMessage } from "./worker.js";

// The worker is started from its file: dist/…/worker.js in the compiled package. When tests import
// this module from src/ (through vitest), its URL ends in .ts, and Node runs worker.ts itself.
const WORKER_URL = new URL(`./worker${import.meta.url.endsWith(".ts") ? ".ts" : ".js"}`, import.meta.url);

/**
 * The process's Node options, which a worker inherits, less --input-type: it applies to code given
 * as a string (`node --input-type=module -e ...`), and a worker started from a file refuses to start with it.
 */
function workerExecArgv(execArgv: readonly string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const option = execArgv[i]!;
    // --input-type module: its value is the next option.
    if (option === "--input-type") i++;
    else if (!option.startsWith("--input-type=")) kept.push(option);
  }
  return kept;
}

/** The connection as the opening checks use it; each call waits for the worker's answer. */
export interface Connection {
  exec(sql: string): void;
  get(sql: string): Row | undefined;
  all(sql: string): Row[];
  /** Runs a write's statements inside the transaction that is open. */
  write(list: Write[]): void;
  close(): void;
}

/** The worker holding the connection: `database` for synchronous calls at start, `commit` for writes. */
export class SqliteWorker {
  private readonly worker: Worker;
  private readonly signal = new Int32Array(new SharedArrayBuffer(4));
  private readonly port: MessagePort;
  private readonly pending = new Map<number, (outcome: CommitOutcome) => void>();
  private nextId = 0;
  private exited: Error | undefined;

  /** A worker that is ready for calls; rejects when it cannot start (its file missing, say). */
  static async start(): Promise<SqliteWorker> {
    const started = new SqliteWorker();
    try {
      // Its first message says it is ready; a worker that cannot start emits "error" instead, which rejects.
      await once(started.worker, "message");
    } catch (error) {
      await started.terminate();
      throw new Error(`the SQLite worker could not start: ${error instanceof Error ? error.message : String(error)}`);
    }
    // Referenced until now, so that the process did not end while the worker started.
    started.worker.unref();
    return started;
  }

  private constructor() {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    const workerData: WorkerData = { signal: this.signal, port: port2 };
    this.worker = new Worker(WORKER_URL, { workerData, transferList: [port2], execArgv: workerExecArgv(process.execArgv) });
    this.worker.on("message", (m: WorkerMessage) => {
      if ("ready" in m) return;
      const resolve = this.pending.get(m.id);
      this.pending.delete(m.id);
      if (this.pending.size === 0) this.worker.unref();
      resolve?.("error" in m ? { failed: m.error } : m.value);
    });
    this.worker.on("error", (error) => this.fail(error));
    this.worker.on("exit", (code) => this.fail(new Error(`the SQLite worker exited (${code})`)));
    this.port.unref();
  }

  private fail(error: Error): void {
    this.exited ??= error;
    for (const resolve of this.pending.values()) resolve({ failed: { message: error.message } });
    this.pending.clear();
  }

  /** A call that waits for its answer, blocking the thread: only at start and close. */
  callSync<R extends Request>(request: R): Answers[R["op"]] {
    if (this.exited) throw this.exited;
    Atomics.store(this.signal, 0, 0);
    this.port.postMessage(request);
    if (Atomics.wait(this.signal, 0, 0, 120_000) === "timed-out") throw new Error("the SQLite worker did not answer within 120 s");
    // The worker's answer to `request` (worker.ts answers each one in order, on this port).
    const reply: Reply<R> | undefined = receiveMessageOnPort(this.port)?.message;
    if (!reply) throw new Error("the SQLite worker sent no answer");
    if ("error" in reply) throw Object.assign(new Error(reply.error.message), { errcode: reply.error.errcode });
    return reply.value;
  }

  /** Commits the appends in one transaction; keeps the process alive until it is answered. */
  commit(appends: Write[][]): Promise<CommitOutcome> {
    if (this.exited) return Promise.resolve({ failed: { message: this.exited.message } });
    const id = this.nextId++;
    this.worker.ref();
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      const request: CommitRequest = { op: "commit", appends };
      this.worker.postMessage({ ...request, id });
    });
  }

  /** Opens `file` in the worker and returns the connection, for the checks at start. */
  database(file: string): Connection {
    this.callSync({ op: "open", file });
    return {
      exec: (sql) => this.callSync({ op: "exec", sql }),
      get: (sql) => this.callSync({ op: "get", sql, params: [] }),
      all: (sql) => this.callSync({ op: "all", sql, params: [] }),
      write: (list) => this.callSync({ op: "write", list }),
      close: () => this.callSync({ op: "close" }),
    };
  }

  async terminate(): Promise<void> {
    this.port.close();
    await this.worker.terminate();
  }
}
