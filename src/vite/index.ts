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
import { declaresTooLarge, readBodyWithin, tooLargeDetail } from "../local-server/body.js";
import { REQUEST_BOUNDS } from "../local-server/bounds.js";
import { isAllowedOrigin } from "../local-server/policy.js";
import { headerValueProblem } from "../shared/header-value.js";
import type { SimRequest } from "../simulator/core/router.js";
import { problem, replyBody, type Reply } from "../simulator/core/reply.js";
import { createSimulator, type Simulator, type SimulatorFault, type SimulatorLatency } from "../simulator/core/simulator.js";

export interface SimulatorPluginOptions {
  /** The path the simulator is served under, such as `/dms` (the default): `/dms/v2/deployments` is the simulator's `/v2/deployments`. */
  prefix?: string;
  /** Seconds per revision state step; default 2. */
  stepSeconds?: number;
  /** How many deployments to seed; default 30. */
  seedDeployments?: number;
  /** Keep the state in this file (relative to Vite's `root`), so it also survives stopping `vite dev`; default memory only. */
  state?: string;
  /** Accepted X-Api-Key values; by default any non-empty key. */
  apiKeys?: readonly string[];
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
const decoder = new TextDecoder();

/**
 * A Vite plugin that answers every request under `prefix` (default `/dms`) from the stateful
 * simulator, in the dev server and the preview server. Point the client at it with
 * `baseUrl: new URL("/dms", location.href).href`.
 */
export function simulatorPlugin(options: SimulatorPluginOptions = {}): SimulatorPlugin {
  if (options === null || typeof options !== "object") throw new TypeError("simulatorPlugin: options must be an object.");
  const prefix = checkPrefix(options.prefix);
  const stepSeconds = checkNumber("stepSeconds", options.stepSeconds);
  const seedDeployments = checkNumber("seedDeployments", options.seedDeployments);
  if (options.state !== undefined && (typeof options.state !== "string" || options.state.trim() === "")) {
    throw new TypeError("simulatorPlugin: state must be a file path (a non-empty string).");
  }
  const apiKeys = options.apiKeys;
  if (apiKeys !== undefined && (!Array.isArray(apiKeys) || apiKeys.some((k) => typeof k !== "string" || k === ""))) {
    throw new TypeError("simulatorPlugin: apiKeys must be an array of non-empty strings.");
  }
  apiKeys?.forEach((key, i) => {
    // A key no client can send as X-Api-Key (a line break, a character above U+00FF) would never match.
    const problem = headerValueProblem(key);
    if (problem) throw new TypeError(`simulatorPlugin: apiKeys[${i}] cannot be sent as an X-Api-Key header: ${problem} (the key is not shown)`);
  });
  if (options.latency !== undefined || options.faults !== undefined) {
    // Checked now, by the simulator's own rules, so a bad value stops the config from loading.
    try {
      createSimulator({
        seedDeployments: 0,
        ...(options.latency !== undefined ? { latency: options.latency } : {}),
        ...(options.faults !== undefined ? { faults: options.faults } : {}),
      });
    } catch (error) {
      throw new TypeError(`simulatorPlugin: ${(error as Error).message.replace(/^createSimulator: /, "")}`);
    }
  }
  const defaultApiKey = options.defaultApiKey;
  if (defaultApiKey !== undefined && (typeof defaultApiKey !== "string" || defaultApiKey === "" || /[^\x21-\x7e]/.test(defaultApiKey))) {
    throw new TypeError("simulatorPlugin: defaultApiKey must be a non-empty string of visible ASCII characters.");
  }
  let root = process.cwd();

  const stateFile = () => (options.state === undefined ? undefined : isAbsolute(options.state) ? options.state : resolve(root, options.state));
  // One simulator per prefix and state file; the same options find the same simulator again.
  const key = () => JSON.stringify([prefix, stateFile() ?? null]);
  const signature = () => JSON.stringify([stepSeconds ?? null, seedDeployments ?? null, apiKeys ?? null, options.latency ?? null, options.faults ?? null]);

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

  function middleware(server: ViteDevServer | PreviewServer) {
    return (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => {
      const url = req.url ?? "/";
      const target = underPrefix(url, prefix);
      if (target === undefined) return next();
      serve(req, res, target, simulator, defaultApiKey).catch((error: unknown) => {
        server.config.logger.error(`[${NAME}] ${(error as Error)?.stack ?? String(error)}`);
        if (res.headersSent) res.destroy();
        // The reason (a state file's path, say) goes to Vite's log, not into the answer.
        else send(res, problem("internal", "The simulator failed to start; the dev server's log says why.", pathOf(url)));
      });
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
      server.middlewares.use(middleware(server));
    },
    async configurePreviewServer(server) {
      await simulator();
      server.middlewares.use(middleware(server));
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

async function serve(
  req: IncomingMessage,
  res: ServerResponse,
  target: string,
  simulator: () => Promise<Simulator>,
  defaultApiKey: string | undefined,
): Promise<void> {
  const path = pathOf(target);
  const method = req.method ?? "GET";
  // Vite has checked the Host header and answered CORS preflights; what it does not stop is a page
  // on another site sending a form or text/plain POST here, which browsers send without asking.
  if (isCrossSiteWrite(req)) {
    return send(res, problem("forbidden", `Requests that change state are not accepted from pages on ${req.headers.origin ?? "another site"}.`, path));
  }
  if (declaresTooLarge(req.headers["content-length"], REQUEST_BOUNDS.maxBodyBytes)) {
    return send(res, { ...problem("content-too-large", tooLargeDetail(REQUEST_BOUNDS.maxBodyBytes), path), headers: { connection: "close" } });
  }
  const sim = await simulator();
  let tooLarge = false;
  const request: SimRequest = {
    method,
    target,
    header: (name) => {
      const value = req.headers[name];
      if (value === undefined) return name === "x-api-key" && defaultApiKey !== undefined ? defaultApiKey : null;
      return Array.isArray(value) ? value.join(",") : value;
    },
    text: async (limit) => {
      const read = await readBodyWithin(req, limit);
      if (read.ok) return decoder.decode(read.bytes);
      tooLarge = true;
      return null;
    },
  };
  let reply: Reply;
  try {
    reply = await sim.handle(request);
  } catch {
    reply = problem("internal", "The simulator failed to handle the request.", path);
  }
  // A dropped connection asked for as a fault: no answer at all, as a network error looks to the page.
  if ((reply as { drop?: boolean }).drop) {
    res.destroy();
    return;
  }
  send(res, tooLarge ? { ...reply, headers: { ...reply.headers, connection: "close" } } : reply, method);
}

/** A state-changing request from a page whose origin is neither this server's nor a loopback one. */
function isCrossSiteWrite(req: IncomingMessage): boolean {
  const method = (req.method ?? "GET").toUpperCase();
  if (method === "GET" || method === "HEAD" || method === "OPTIONS") return false;
  const origin = req.headers.origin;
  if (typeof origin === "string" && origin !== "") {
    if (isAllowedOrigin(origin)) return false;
    try {
      return new URL(origin).host !== req.headers.host;
    } catch {
      return true;
    }
  }
  return req.headers["sec-fetch-site"] === "cross-site";
}

function send(res: ServerResponse, reply: Reply, method = "GET"): void {
  const body = replyBody(reply);
  const headers: Record<string, string | number> = { "cache-control": "no-store" };
  headers["content-length"] = typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
  if (body.length > 0) headers["content-type"] = reply.contentType ?? "application/json";
  if (reply.headers) Object.assign(headers, reply.headers);
  res.writeHead(reply.status, headers);
  res.end(method === "HEAD" ? undefined : body);
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

function checkNumber(name: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new TypeError(`simulatorPlugin: ${name} must be a finite number >= 0, not ${String(value)}.`);
  }
  return value;
}
