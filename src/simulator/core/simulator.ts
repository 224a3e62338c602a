// createSimulator: the stateful simulator as a value, with no port. It wires the core together
// (store, lifecycle, routes, validation, handler) and offers it as a fetch function and as methods.
// Persistence is an adapter passed in; the core imports nothing from Node, so it runs in browsers,
// service workers (MSW) and tests as it does behind node:http.
import type { Persistence } from "./changes.js";
import { controlHandlers, type SimulatorStatus } from "./control.js";
import { openApiDocument } from "./document.js";
import { fetchOver, type FetchFunction } from "./fetch.js";
import { createHandler, type Handler } from "./handler.js";
import type { FailureStatus, State } from "./model.js";
import { Renderer } from "./render.js";
import type { Reply } from "./reply.js";
import { operationHandlers } from "./routes.js";
import { DEFAULT_SEED_DEPLOYMENTS, SEED_IDS, seedState } from "./seed.js";
import { Store } from "./store.js";
import { describeOperations, RequestChecker } from "./validate.js";
import { Writer } from "./writer.js";

export type { SimulatorStatus } from "./control.js";

export interface CreateSimulatorOptions {
  /** Seconds per revision state step; default 2. */
  stepSeconds?: number;
  /** How many deployments to seed; default 30. */
  seedDeployments?: number;
  /** Accepted X-Api-Key values; by default any non-empty key. With keys, the control API needs one too. */
  apiKeys?: readonly string[];
  /** The clock, in milliseconds since the epoch; default `Date.now()` (read on each call, so fake timers drive it). */
  now?: () => number;
  /** Where writes are saved before they are answered; default none (memory only). */
  persistence?: Persistence;
}

export interface Simulator {
  /** Answers a request in-process, like the global fetch answers one over the network. */
  fetch: FetchFunction;
  /** Resolves once the simulator serves (at once without persistence; after loading with it). Rejects when the saved state is unusable. */
  ready: Promise<{ restored: boolean }>;
  /** Moves the simulated clock forward by `seconds` (0 to ten years); revisions move as if that time had passed. */
  advance(seconds: number): Promise<SimulatorStatus>;
  /** Back to the seed, and the simulated clock back to the clock. */
  reset(): Promise<SimulatorStatus>;
  /** The next revision of that deployment ends in `status` instead of DEPLOYED. */
  failNext(deploymentId: string, status: FailureStatus): Promise<void>;
  /** The simulated time, the step and the seed's well-known ids (what GET /_simulator answers). */
  status(): Promise<SimulatorStatus>;
  /** Waits for writes in flight and closes the persistence. */
  close(): Promise<void>;
  /** The transport-neutral handler, for adapters (node:http, MSW). */
  handle: Handler;
}

/** A control call of the simulator's methods that was refused (bad arguments, unknown deployment). */
export class SimulatorControlError extends Error {
  override readonly name = "SimulatorControlError";
  constructor(
    message: string,
    readonly status: number,
    readonly problem: unknown,
  ) {
    super(message);
  }
}

export function createSimulator(options: CreateSimulatorOptions = {}): Simulator {
  const stepSeconds = nonNegative("stepSeconds", options.stepSeconds, 2);
  const seedCount = Math.floor(nonNegative("seedDeployments", options.seedDeployments, DEFAULT_SEED_DEPLOYMENTS));
  const clock = options.now ?? (() => Date.now());
  if (typeof clock !== "function") throw new TypeError("createSimulator: now must be a function returning milliseconds.");
  const apiKeys = options.apiKeys;
  if (apiKeys !== undefined && (!Array.isArray(apiKeys) || apiKeys.some((k) => typeof k !== "string" || k === ""))) {
    throw new TypeError("createSimulator: apiKeys must be an array of non-empty strings.");
  }
  const persistence = options.persistence;

  const seed = (): State => seedState(seedCount, clock());
  const store = new Store(seed(), stepSeconds * 1000, clock);
  const writer = new Writer(store, persistence);
  const render = new Renderer(store);
  const control = controlHandlers({ store, writer, seed, stepSeconds, seedIds: SEED_IDS });
  const handle = createHandler({
    operations: describeOperations(openApiDocument),
    checker: new RequestChecker(),
    handlers: operationHandlers(store, writer, render),
    control,
    tick: () => store.tick(),
    apiKeys,
  });

  let loaded = !persistence;
  const ready: Promise<{ restored: boolean }> = persistence ? start(persistence) : Promise.resolve({ restored: false });
  async function start(p: Persistence): Promise<{ restored: boolean }> {
    p.attach(() => store.snapshot());
    const saved = await p.load();
    if (saved) store.load(saved);
    // No saved state yet: save the seed, so the saved state exists from the start.
    else await p.append([{ op: "replace_state", state: store.snapshot() }]);
    loaded = true;
    return { restored: saved !== undefined };
  }
  // A rejected `ready` surfaces through fetch and the methods; not also as an unhandled rejection.
  ready.catch(() => {});

  async function call(key: string, body: unknown): Promise<any> {
    await ready;
    store.tick();
    const reply: Reply = await control[key]!(body, `/_simulator/${key.split(" ")[1]}`);
    if (reply.status === 200) return reply.body;
    const p = reply.body as { detail?: string; errors?: { pointer?: string; detail: string }[] };
    const details = (p.errors ?? []).map((e) => `${e.pointer ?? ""} ${e.detail}`.trim());
    throw new SimulatorControlError([p.detail, ...details].filter(Boolean).join(" "), reply.status, reply.body);
  }

  return {
    fetch: fetchOver(handle, () => loaded, ready),
    ready,
    handle,
    advance: (seconds) => call("POST advance", { seconds }),
    reset: () => call("POST reset", {}),
    failNext: async (deploymentId, status) => {
      await call("POST fail-next", { deployment_id: deploymentId, status });
    },
    status: () => call("GET ", undefined),
    close: async () => {
      await ready.catch(() => {});
      await writer.idle();
      await persistence?.close();
    },
  };
}

function nonNegative(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new TypeError(`createSimulator: ${name} must be a finite number >= 0, not ${String(value)}.`);
  }
  return value;
}
