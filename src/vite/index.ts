// The Vite entry ("deployment-management-api/vite"): `simulatorPlugin()` serves the stateful simulator
// under a path prefix of `vite dev` (and `vite preview`), so a browser app calls it same-origin: no
// second process, no second port, no CORS. Vite is an optional peer dependency and is imported for
// its types only, so this module has no run-time import of it.
//
// The simulator is kept on a globalThis registry, not in the plugin object: Vite restarts its server
// (and calls this function again) when the config file changes, and a config bundled with the
// package inside it evaluates this module again; both find the same simulator, so the state a page
// built up survives. Changing the plugin's options starts a new simulator (from the state file when
// one is given).
import type { IncomingMessage, ServerResponse } from "node:http";
import { mkdir } from "node:fs/promises";
import { dirname, isAbsolute, resolve } from "node:path";
import type { Plugin, PreviewServer, ViteDevServer } from "vite";
import { withoutDotSegments } from "../gate/gate.js";
import { createNodeGate, type NodeGate } from "../local-server/node-gate.js";
import { checkSimulatorOptions, type KeyScope, type SimulatorApiKey, type SimulatorFault, type SimulatorLatency } from "../simulator/core/options.js";
import type { ErrorShape } from "../shared/problems.js";
import { refusalWriter, type Router } from "../simulator/core/router.js";
import { problem } from "../simulator/core/reply.js";
import { createSimulator, type Simulator } from "../simulator/core/simulator.js";
import { serveSimulatorRequest } from "../simulator/node/serve.js";
import { vitePolicy } from "./gate-policy.js";
import { apiKeyProblem } from "../shared/header-value.js";

export interface SimulatorPluginOptions {
  /** The path the simulator is served under, such as `/dms` (the default): `/dms/v2/deployments` is the simulator's `/v2/deployments`. */
  prefix?: string;
  /** Seconds per revision state step; default 2. */
  stepSeconds?: number;
  /** How many deployments to seed; default 30. */
  seedDeployments?: number;
  /** Keep the state in this file (relative to Vite's `root`), so it also survives stopping `vite dev`; default memory only. */
  state?: string;
  /** Accepted X-Api-Key values (each a string, or `{ key, scope }`); by default any non-empty key. */
  apiKeys?: readonly (string | SimulatorApiKey)[];
  /** The scope of keys given as strings, or of any key without apiKeys: "any" (default), "organization" (X-Tenant-Id required) or `{ tenantId }`. */
  keyScope?: KeyScope;
  /**
   * "problem" (default): errors as application/problem+json. "service": in the service's own shapes
   * (`{"detail": "…"}`, a 422's `{"detail": [{loc, msg, type}]}`), so the app meets in development
   * the error bodies it will meet in production.
   */
  errors?: ErrorShape;
  /**
   * The X-Api-Key the plugin adds to a request that comes without one, as a same-origin proxy in front
   * of the service adds the real key: the app's client then needs no `apiKey`, and no key is bundled
   * into the page. Default none (a request without a key is answered 401, as the service does).
   */
  defaultApiKey?: string;
  /** Milliseconds to wait before each API answer (fixed, or `{ minMs, maxMs }`), so loading states show; default 0. */
  latency?: SimulatorLatency;
  /** Requests that fail from the start (429, 500, 503 or a dropped connection), as `sim.injectFault` adds them. */
  faults?: readonly SimulatorFault[];
}

/** What the plugin offers other plugins and scripts (`plugin.api`): the simulator it serves. */
export interface SimulatorPluginApi {
  /** The prefix the simulator is served under, without a trailing slash. */
  readonly prefix: string;
  /** The simulator behind the prefix (created on first use): `advance`, `reset`, `failNext` work in-process. */
  simulator(): Promise<Simulator>;
  /** Closes the simulator (and its state file) and forgets it; the next request or `simulator()` starts a new one. */
  close(): Promise<void>;
}

export type SimulatorPlugin = Plugin & { api: SimulatorPluginApi };

interface Entry {
  /** The options the simulator was made with; another set replaces it. */
  signature: string;
  simulator: Promise<Simulator>;
}

const REGISTRY_KEY = Symbol.for("deployment-management-api/vite/simulators");
const globals = globalThis as Record<symbol, Map<string, Entry> | undefined>;
const registry: Map<string, Entry> = globals[REGISTRY_KEY] ?? new Map<string, Entry>();
globals[REGISTRY_KEY] = registry;

const NAME = "deployment-management-api:simulator";
// The simulator's answers are state that changes: a browser must not answer a later GET from its cache.
const NO_STORE = { "cache-control": "no-store" };

/**
 * A Vite plugin that answers every request under `prefix` (default `/dms`) from the stateful
 * simulator, in the dev server and the preview server. Point the client at it with
 * `baseUrl: new URL("/dms", location.href).href`.
 */
export function simulatorPlugin(options: SimulatorPluginOptions = {}): SimulatorPlugin {
  if (options === null || typeof options !== "object") throw new TypeError("simulatorPlugin: options must be an object.");
  const prefix = checkPrefix(options.prefix);
  // The simulator's own options, by its own rules, checked now so a bad value stops the config from loading.
  const { stepSeconds, seedDeployments } = checkSimulatorOptions(options, "simulatorPlugin");
  if (options.state !== undefined && (typeof options.state !== "string" || options.state.trim() === "")) {
    throw new TypeError("simulatorPlugin: state must be a file path (a non-empty string).");
  }
  const apiKeys = options.apiKeys;
  const defaultApiKey = options.defaultApiKey;
  const keyProblem = defaultApiKey === undefined ? undefined : apiKeyProblem(defaultApiKey);
  if (keyProblem) {
    throw new TypeError(`simulatorPlugin: defaultApiKey ${keyProblem}.`);
  }
  let root = process.cwd();
  const writeProblem = refusalWriter(options.errors ?? "problem");

  const stateFile = () => (options.state === undefined ? undefined : isAbsolute(options.state) ? options.state : resolve(root, options.state));
  // One simulator per prefix and state file; the same options find the same simulator again.
  const key = () => JSON.stringify([prefix, stateFile() ?? null]);
  const signature = () =>
    JSON.stringify([
      stepSeconds ?? null,
      seedDeployments ?? null,
      apiKeys ?? null,
      options.latency ?? null,
      options.faults ?? null,
      options.keyScope ?? null,
      options.errors ?? null,
    ]);

  async function simulator(): Promise<Simulator> {
    const found = registry.get(key());
    if (found && found.signature === signature()) return found.simulator;
    const previous = found?.simulator;
    const file = stateFile();
    const made = (async () => {
      // The old one first lets go of the state file, which one simulator at a time may hold.
      if (previous) await (await previous.catch(() => undefined))?.close();
      // The persistence (and node:sqlite under it) is loaded only when a state file is asked for.
      // A directory that cannot be made (a file is in the way) is said by the state file's own check.
      if (file) await mkdir(dirname(file), { recursive: true }).catch(() => {});
      const persistence = file ? (await import("../simulator/node/index.js")).createStateFilePersistence(file) : undefined;
      const sim = createSimulator({
        ...(stepSeconds !== undefined ? { stepSeconds } : {}),
        ...(seedDeployments !== undefined ? { seedDeployments } : {}),
        ...(apiKeys ? { apiKeys } : {}),
        ...(options.keyScope !== undefined ? { keyScope: options.keyScope } : {}),
        ...(options.errors !== undefined ? { errors: options.errors } : {}),
        ...(options.latency !== undefined ? { latency: options.latency } : {}),
        ...(options.faults !== undefined ? { faults: options.faults } : {}),
        ...(persistence ? { persistence } : {}),
      });
      await sim.ready;
      return sim;
    })();
    const entry: Entry = { signature: signature(), simulator: made };
    registry.set(key(), entry);
    // A simulator that could not start is not kept: the next request tries again (and says why).
    made.catch(() => {
      if (registry.get(key()) === entry) registry.delete(key());
    });
    return made;
  }

  async function close(): Promise<void> {
    const found = registry.get(key());
    if (!found) return;
    registry.delete(key());
    await (await found.simulator.catch(() => undefined))?.close();
  }

  /** The simulator's handler, started on first use; a simulator that cannot start answers 500 and Vite's log says why. */
  function handlerFor(server: ViteDevServer | PreviewServer): Router {
    return (request) =>
      simulator().then(
        (sim) => sim.handle(request),
        (error: unknown) => {
          server.config.logger.error(`[${NAME}] ${(error as Error)?.stack ?? String(error)}`);
          // The reason (a state file's path, say) goes to Vite's log, not into the answer.
          return problem("internal", "The simulator failed to start; the dev server's log says why.", pathOf(request.target));
        },
      );
  }

  function middleware(server: ViteDevServer | PreviewServer, kind: "dev" | "preview") {
    const handle = handlerFor(server);
    const logError = (error: unknown) => server.config.logger.error(`[${NAME}] ${(error as Error)?.stack ?? String(error)}`);
    const missingHeader = (name: string) => (name === "x-api-key" ? (defaultApiKey ?? null) : null);
    // Made on the first request: by then the server listens and its URLs (names, origins) are known.
    let gate: NodeGate | undefined;
    return (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => {
      // Dot segments removed before the prefix is matched, as fetch's URL parser removes them before a
      // request leaves: `/dms/../dms/v2/listeners` is the simulator's, `/dms/v2/../../v2/listeners` Vite's.
      const target = underPrefix(withoutDotSegments(req.url ?? "/"), prefix);
      if (target === undefined) return next();
      gate ??= createNodeGate({
        policy: vitePolicy(server, kind),
        serverName: "simulator",
        flagHints: false,
        // The plugin's own refusals are written in the shape its simulator answers in.
        ...(writeProblem ? { writeProblem } : {}),
      });
      serveSimulatorRequest(req, res, { gate, handle, target, missingHeader, replyHeaders: NO_STORE, logError });
    };
  }

  return {
    name: NAME,
    api: { prefix, simulator, close },
    configResolved(config) {
      root = config.root;
    },
    async configureServer(server) {
      // Started with the server, so a state file that cannot be used stops `vite dev` with its reason.
      await simulator();
      server.middlewares.use(middleware(server, "dev"));
    },
    async configurePreviewServer(server) {
      await simulator();
      server.middlewares.use(middleware(server, "preview"));
    },
  };
}

/** The path and query after the prefix (`/v2/deployments?limit=2`), or undefined when the URL is not under it. */
function underPrefix(url: string, prefix: string): string | undefined {
  if (!url.startsWith(prefix)) return undefined;
  const rest = url.slice(prefix.length);
  if (rest === "") return "/";
  if (rest[0] === "/") return rest;
  if (rest[0] === "?") return `/${rest}`;
  return undefined;
}

function pathOf(target: string): string {
  const q = target.indexOf("?");
  return q < 0 ? target : target.slice(0, q);
}

function checkPrefix(value: unknown): string {
  if (value === undefined) return "/dms";
  if (typeof value !== "string" || !/^(\/[A-Za-z0-9._~!$&'()*+,;=:@-]+)+\/?$/.test(value)) {
    throw new TypeError(`simulatorPlugin: prefix must be a path such as "/dms" (starting with "/", not "/" alone, no query), not ${JSON.stringify(value)}.`);
  }
  return value.replace(/\/$/, "");
}
