// startSimulator: the simulator's core behind node:http on a port, with the state file (when one
// is given, a SQLite database through node:sqlite) as its persistence. This is the only part of the
// simulator that needs Node; node:sqlite is loaded only when there is a state file.
import type { TimeBounds } from "../../gate/bounds.js";
import { type Listening, listen } from "../../local-server/listen.js";
import { checkPortOption } from "../../shared/port.js";
import { checkSimulatorOptions } from "../core/options.js";
import {
  createSimulator,
  type ErrorShape,
  type KeyScope,
  type Simulator,
  type SimulatorApiKey,
  type SimulatorFault,
  type SimulatorLatency,
} from "../core/simulator.js";
import { createSqlitePersistence } from "./sqlite/index.js";
import { createNodeServer } from "./http.js";

export interface SimulatorOptions {
  /** 0 picks a free port. Default 4011 from the CLI (PORT overrides); 0 here. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Seconds per revision state step; default 2 (SIMULATOR_STEP_SECONDS). */
  stepSeconds?: number;
  /** Keep the state in this SQLite file (created 0600 when missing): every acknowledged write is on disk before it is answered. Needs Node 22.13 or later. */
  stateFile?: string;
  /** With `stateFile` naming a file that does not exist yet: import this 1.0 state file (a JSON snapshot and FILE.journal) into it first. */
  importStateFrom?: string;
  /** Accepted X-Api-Key values (each a string, or `{ key, scope }`); by default any non-empty key. With keys, the control API needs one too. */
  apiKeys?: (string | SimulatorApiKey)[];
  /** The scope of keys given as strings, or of any key without apiKeys (createSimulator's `keyScope`). */
  keyScope?: KeyScope;
  /** "service": errors in the service's own FastAPI shapes instead of problem+json (createSimulator's `errors`). */
  errors?: ErrorShape;
  /** How many deployments to seed; default 30. */
  seedDeployments?: number;
  /** The clock (ms since the epoch); default Date.now(). */
  now?: () => number;
  /** Host names accepted besides the loopback ones (and `host`, when it is a name or an address other than a wildcard). */
  allowedHosts?: string[];
  /** Origins (scheme://host[:port]) whose pages may call the simulator besides loopback ones. */
  corsOrigins?: string[];
  /** No request log and no notices. */
  quiet?: boolean;
  /** Milliseconds to wait before each API answer, fixed or a range (createSimulator's `latency`). */
  latency?: SimulatorLatency;
  /** Requests that fail from the start (createSimulator's `faults`). */
  faults?: SimulatorFault[];
  /** How long a client may take to send a request; SERVER_TIME_BOUNDS by default (tests give shorter ones). */
  timeBounds?: Partial<TimeBounds>;
}

export interface RunningSimulator {
  url: string;
  port: number;
  /** The core behind the port: `fetch`, `advance`, `reset`, `failNext` also work in-process. */
  simulator: Simulator;
  close(): Promise<void>;
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  // Messages go to stderr: stdout carries only what a script reads (the CLI's URL line).
  const log = options.quiet ? undefined : (line: string) => console.error(line);
  const stateFile = options.stateFile;
  // An empty path would start a simulator that keeps nothing (or imports nothing), as if none was given.
  for (const [name, value] of [
    ["stateFile", stateFile],
    ["importStateFrom", options.importStateFrom],
  ] as const) {
    if (value !== undefined && (typeof value !== "string" || value === "")) {
      throw new TypeError(`startSimulator: ${name} must be a file path (a non-empty string), got ${JSON.stringify(value) ?? String(value)}.`);
    }
  }
  if (options.importStateFrom !== undefined && !stateFile) throw new TypeError("startSimulator: importStateFrom needs stateFile, the new file to import into.");
  checkSimulatorOptions(options, "startSimulator");
  checkPortOption("startSimulator", options.port);
  const stepSeconds = options.stepSeconds ?? envNumber("SIMULATOR_STEP_SECONDS");
  const simulator = createSimulator({
    ...(stepSeconds !== undefined ? { stepSeconds } : {}),
    ...(options.seedDeployments !== undefined ? { seedDeployments: options.seedDeployments } : {}),
    ...(options.apiKeys ? { apiKeys: options.apiKeys } : {}),
    ...(options.keyScope !== undefined ? { keyScope: options.keyScope } : {}),
    ...(options.errors !== undefined ? { errors: options.errors } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(options.latency !== undefined ? { latency: options.latency } : {}),
    ...(options.faults ? { faults: options.faults } : {}),
    ...(stateFile ? { persistence: createSqlitePersistence(stateFile, options.importStateFrom ? { importFrom: options.importStateFrom } : {}) } : {}),
  });
  // A state file that cannot be used throws here, before anything could overwrite it.
  const { restored } = await simulator.ready;
  if (stateFile && options.importStateFrom) log?.(`Imported the 1.0 state file ${options.importStateFrom} into ${stateFile}.`);
  else if (stateFile && !restored) log?.(`State file ${stateFile} does not exist yet; starting from the seed and creating it.`);

  const host = options.host ?? "127.0.0.1";
  const server = createNodeServer({
    handle: simulator.handle,
    policy: { allowedHosts: options.allowedHosts ?? [], corsOrigins: options.corsOrigins ?? [] },
    // The address listened on is a name the simulator answers to as well (the gate's rule).
    listenHost: host,
    log,
    timeBounds: options.timeBounds,
    errors: options.errors,
  });
  let listening: Listening;
  try {
    listening = await listen(server, options.port ?? 0, host);
  } catch (error) {
    await simulator.close();
    throw error;
  }
  return {
    url: listening.url,
    port: listening.port,
    simulator,
    close: async () => {
      await listening.close();
      await simulator.close();
    },
  };
}

function envNumber(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a number >= 0, not "${raw}".`);
  return n;
}
