// createSimulator: the stateful simulator as a value, with no port. It wires the core together
// (store, lifecycle, writer, router, validation) and offers it as a fetch function and as methods.
// Persistence is an adapter passed in; the core imports nothing from Node, so it runs in browsers,
// service workers (MSW) and tests as it does behind node:http.
import type { Persistence } from "./changes.js";
import { CONTROL_ROUTES, type ControlActionName, controlActions, type SimulatorStatus } from "./control.js";
import { openApiDocument } from "../../shared/document.js";
import { fetchOver, type FetchLike } from "./fetch.js";
import { createRouter, type Router, withErrorShape } from "./router.js";
import type { ErrorShape } from "../../shared/problems.js";
import type { FailureStatus, State } from "./model.js";
import { Faults } from "./faults.js";
import { checkSimulatorOptions, type KeyScope, latencyBody, ruleBody, type SimulatorApiKey, type SimulatorFault, type SimulatorLatency } from "./options.js";
import { JsonCache } from "./json-cache.js";
import type { Reply } from "./reply.js";
import { operationAnswers } from "./operations.js";
import { DEFAULT_SEED_DEPLOYMENTS, SEED_IDS, seedState } from "./seed.js";
import { Store } from "./store/index.js";
import { describeOperations, RequestChecker } from "./validate.js";
import { Writer } from "./writer.js";

export type { SimulatorStatus } from "./control.js";

export interface CreateSimulatorOptions {
  /** Seconds per revision state step; default 2. */
  stepSeconds?: number;
  /** How many deployments to seed; default 30. */
  seedDeployments?: number;
  /**
   * Accepted X-Api-Key values; by default any non-empty key. With keys, the control API needs one
   * too. A key may carry its scope (`{ key, scope: "organization" }`, `{ key, scope: { tenantId } }`).
   */
  apiKeys?: readonly (string | SimulatorApiKey)[];
  /**
   * The scope of keys given as strings, and of any key when `apiKeys` is not given: "any" (the
   * default: any tenant, every tenant without X-Tenant-Id), "organization" (X-Tenant-Id required:
   * without it 403, as the service answers an organisation-scoped key) or `{ tenantId }` (that workspace only).
   */
  keyScope?: KeyScope;
  /**
   * The shape of error answers: "problem" (the default), application/problem+json as this package's
   * servers answer; "service", the service's own FastAPI bodies (`{"detail": "…"}`, and for a 422
   * `{"detail": [{loc, msg, type}]}`, application/json) with the same statuses and conditions.
   */
  errors?: ErrorShape;
  /** The clock, in milliseconds since the epoch; default `Date.now()` (read on each call, so fake timers drive it). */
  now?: () => number;
  /** Where writes are saved before they are answered; default none (memory only). */
  persistence?: Persistence;
  /** Milliseconds to wait before each API answer: fixed, or drawn from a range for each request; default 0. */
  latency?: SimulatorLatency;
  /** Requests that fail from the start, in order (as `injectFault` adds them). */
  faults?: readonly SimulatorFault[];
}

export type { KeyScope, SimulatorApiKey, SimulatorFault, SimulatorLatency } from "./options.js";
export type { ErrorShape } from "../../shared/problems.js";

export interface Simulator {
  /** Answers a request in-process, like the global fetch answers one over the network. */
  fetch: FetchLike;
  /** Resolves once the simulator serves (at once without persistence; after loading with it). Rejects when the saved state is unusable. */
  ready: Promise<{ restored: boolean }>;
  /** Moves the simulated clock forward by `seconds` (0 to ten years); revisions move as if that time had passed. */
  advance(seconds: number): Promise<SimulatorStatus>;
  /** Back to the seed, and the simulated clock back to the clock. */
  reset(): Promise<SimulatorStatus>;
  /** The next revision of that deployment ends in `status` instead of DEPLOYED. */
  failNext(deploymentId: string, status: FailureStatus): Promise<void>;
  /** The simulated time, the step, the seed's well-known ids, the latency and the pending faults (what GET /_simulator answers). */
  status(): Promise<SimulatorStatus>;
  /** Waits this long before each API answer from now on (0 turns it off). */
  setLatency(latency: SimulatorLatency): Promise<SimulatorStatus>;
  /** Makes the next `count` requests of an operation (or of all) fail; rules apply in the order they were added. */
  injectFault(fault: SimulatorFault): Promise<SimulatorStatus>;
  /** Drops the pending faults and the latency. */
  clearFaults(): Promise<SimulatorStatus>;
  /** Waits for writes in flight and closes the persistence. */
  close(): Promise<void>;
  /** The transport-neutral handler, for adapters (node:http, MSW). */
  handle: Router;
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
  const checked = checkSimulatorOptions(options);
  const stepSeconds = checked.stepSeconds ?? 2;
  const seedCount = Math.floor(checked.seedDeployments ?? DEFAULT_SEED_DEPLOYMENTS);
  const clock = options.now ?? (() => Date.now());
  const persistence = options.persistence;

  const seed = (): State => seedState(seedCount, clock());
  const store = new Store(seed(), stepSeconds * 1000, clock);
  const writer = new Writer(store, persistence);
  const render = new JsonCache(store);
  const operations = describeOperations(openApiDocument);
  const faults = new Faults(new Set(operations.map((o) => o.operationId)));
  // A reset takes latency and faults back to the options (a rule is copied as it is added).
  const resetFaults = () => {
    faults.clear();
    faults.setLatency(checked.latency);
    for (const rule of checked.faults) faults.add(rule);
  };
  resetFaults();
  const control = controlActions({ store, writer, seed, stepSeconds, seedIds: SEED_IDS, faults, resetFaults });
  const routed = createRouter({
    faults,
    operations,
    checker: new RequestChecker(),
    answers: operationAnswers(store, writer, render),
    control,
    tick: () => store.tick(),
    apiKeys: checked.apiKeys,
    keyScope: checked.keyScope,
  });
  const handle = withErrorShape(routed, checked.errors, operations);

  let loaded = !persistence;
  const ready: Promise<{ restored: boolean }> = persistence ? start(persistence) : Promise.resolve({ restored: false });
  async function start(p: Persistence): Promise<{ restored: boolean }> {
    p.attach(() => store.snapshot());
    const saved = await p.load();
    try {
      if (saved) store.load(saved);
      // No saved state yet: save the seed, so the saved state exists from the start.
      else await p.append([{ op: "replace_state", state: store.snapshot() }]);
    } catch (error) {
      // A start that fails after load (a disk too full for the seed) lets go of what load opened:
      // the file, and its lock, which would refuse the next start as "another simulator".
      await p.close().catch(() => {});
      throw error;
    }
    loaded = true;
    return { restored: saved !== undefined };
  }
  // A rejected `ready` surfaces through fetch and the methods; not also as an unhandled rejection.
  ready.catch(() => {});

  /** Runs a control action as its request would, after the same tick; resolves with its answer, or rejects with a SimulatorControlError. */
  async function call<T>(action: ControlActionName, body: unknown): Promise<T> {
    await ready;
    store.tick();
    const reply: Reply = await control[action](body, `/_simulator/${CONTROL_ROUTES[action].path}`);
    if (reply.status === 200) return reply.body as T;
    const p = reply.body as { detail?: string; errors?: { pointer?: string; detail: string }[] };
    const details = (p.errors ?? []).map((e) => `${e.pointer ?? ""} ${e.detail}`.trim());
    throw new SimulatorControlError([p.detail, ...details].filter(Boolean).join(" "), reply.status, reply.body);
  }

  return {
    fetch: fetchOver(handle, () => loaded, ready),
    ready,
    handle,
    advance: (seconds) => call("advance", { seconds }),
    reset: () => call("reset", {}),
    failNext: async (deploymentId, status) => {
      await call("failNext", { deployment_id: deploymentId, status });
    },
    status: () => call("status", undefined),
    setLatency: (latency) => call("latency", latencyBody(latency)),
    injectFault: (fault) => call("faults", ruleBody(fault)),
    clearFaults: () => call("clearFaults", {}),
    close: async () => {
      await ready.catch(() => {});
      await writer.idle();
      await persistence?.close();
    },
  };
}
