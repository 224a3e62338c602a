// The simulator's entry point ("deployment-management-api/simulator"): a stateful Deployment
// Management Service on plain node:http, for local development and tests.
import type { AddressInfo } from "node:net";
import { loadDocument } from "./document.js";
import { createOpenApiValidator } from "./openapi-validator.js";
import { readState, writeState } from "./persistence.js";
import { controlHandlers, operationHandlers } from "./routes.js";
import { DEFAULT_SEED_DEPLOYMENTS, SEED_IDS, seedState } from "./seed.js";
import { createHttpServer } from "./server.js";
import { Store } from "./store.js";
import { compileOperations } from "./validate.js";

export { SEED_IDS } from "./seed.js";
export { StateFileError } from "./persistence.js";

export interface SimulatorOptions {
  /** 0 picks a free port. Default 4011 from the CLI (PORT overrides); 0 here. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Seconds per revision state step; default 2 (SIMULATOR_STEP_SECONDS). */
  stepSeconds?: number;
  /** Keep the state in this file, written before every acknowledged write is answered. */
  stateFile?: string;
  /** Accepted X-Api-Key values; by default any non-empty key. */
  apiKeys?: string[];
  /** How many deployments to seed; default 30. */
  seedDeployments?: number;
  /** No request log. */
  quiet?: boolean;
}

export interface RunningSimulator {
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const stepSeconds = options.stepSeconds ?? envNumber("SIMULATOR_STEP_SECONDS") ?? 2;
  const seedCount = options.seedDeployments ?? DEFAULT_SEED_DEPLOYMENTS;
  const stateFile = options.stateFile;
  const log = options.quiet ? undefined : (line: string) => console.log(line);

  // A state file that cannot be read throws here, before anything could overwrite it.
  const saved = stateFile ? readState(stateFile) : undefined;
  if (stateFile && !saved) log?.(`State file ${stateFile} does not exist yet; starting from the seed and creating it.`);
  const store = new Store(saved ?? seedState(seedCount), stepSeconds * 1000);
  const commit = stateFile ? () => writeState(stateFile, store.snapshot()) : () => {};
  if (stateFile && !saved) commit();

  const document = loadDocument();
  const operations = compileOperations(document, createOpenApiValidator(document));
  const server = createHttpServer({
    operations,
    handlers: operationHandlers(store, commit),
    control: controlHandlers({
      store,
      commit,
      reset: () => store.load(seedState(seedCount)),
      stepSeconds,
      seedIds: SEED_IDS,
    }),
    beforeRequest: () => store.tick(),
    apiKeys: options.apiKeys,
    log,
  });

  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function envNumber(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a number >= 0, not "${raw}".`);
  return n;
}
