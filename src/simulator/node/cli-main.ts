// The simulator's command line (the dms-simulator bin, and `dms simulate`): flags and environment
// to startSimulator, the URL as the only line on stdout, every other message on stderr, and a clean
// stop on SIGINT or SIGTERM.
//   dms-simulator [--port N] [--host H] [--state FILE [--import-state FILE_1_0]] [--step-seconds S] [--seed-deployments N]
//                 [--allowed-host NAME]... [--cors-origin ORIGIN]... [--latency MS|MIN-MAX] [--fail OPERATION:FAULT[:COUNT]]... [--quiet]
// Environment: PORT, SIMULATOR_STATE, SIMULATOR_STEP_SECONDS, SIMULATOR_SEED_DEPLOYMENTS, SIMULATOR_API_KEYS (comma-separated).
import { parseArgs } from "node:util";
import { parseAllowedHost, parseCorsOrigin } from "../../local-server/policy.js";
import type { SimulatorFault, SimulatorLatency } from "../core/simulator.js";
import { checkApiKeys, startSimulator } from "./start.js";

/** A flag or environment value the simulator cannot use; the message names it. */
export class SimulatorUsageError extends Error {
  override readonly name = "SimulatorUsageError";
}

const USAGE =
  "Usage: dms-simulator [--port N] [--host H] [--state FILE [--import-state FILE_1_0]] [--step-seconds S] [--seed-deployments N] " +
  "[--allowed-host NAME]... [--cors-origin ORIGIN]... [--latency MS|MIN-MAX] [--fail OPERATION:FAULT[:COUNT]]... [--quiet]";

/** --latency 200 (fixed) or --latency 100-800 (a range), in milliseconds. */
function latencyFlag(raw: string | undefined): SimulatorLatency | undefined {
  if (raw === undefined) return undefined;
  const m = /^(\d+)(?:-(\d+))?$/.exec(raw.trim());
  if (!m) throw new SimulatorUsageError(`--latency must be milliseconds (200) or a range (100-800), not "${raw}".`);
  return m[2] === undefined ? Number(m[1]) : { minMs: Number(m[1]), maxMs: Number(m[2]) };
}

/** --fail getDeployment:503:2, --fail '*:drop': OPERATION (an operationId, or * for all), FAULT (429, 500, 503 or drop), COUNT (default 1). */
function failFlags(values: string[] | undefined): SimulatorFault[] {
  return (values ?? []).map((raw) => {
    const m = /^([^:]+):(429|500|503|drop)(?::(\d+))?$/.exec(raw.trim());
    if (!m) throw new SimulatorUsageError(`--fail must be OPERATION:FAULT[:COUNT] (FAULT 429, 500, 503 or drop), such as getDeployment:503:2, not "${raw}".`);
    const fault = m[2] === "drop" ? "drop" : (Number(m[2]) as 429 | 500 | 503);
    return { operation: m[1]!, fault, ...(m[3] !== undefined ? { count: Number(m[3]) } : {}) };
  });
}

function number(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined || raw === "") return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new SimulatorUsageError(`${name} must be a number >= 0, not "${raw}".`);
  return n;
}

function each(flag: string, values: string[] | undefined, parse: (value: string) => string): string[] {
  return (values ?? []).map((value) => {
    try {
      return parse(value);
    } catch (error) {
      throw new SimulatorUsageError(`${flag}: ${(error as Error).message}.`);
    }
  });
}

/** Runs the simulator's command line with these arguments (the ones after the program name) until SIGINT or SIGTERM. */
export async function runSimulatorCli(args: string[]): Promise<void> {
  const { values } = parseFlags(args);
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const env = process.env;
  const stateFile = values.state ?? (env.SIMULATOR_STATE || undefined);
  const importState = values["import-state"];
  if (importState !== undefined && !stateFile) throw new SimulatorUsageError(`--import-state needs --state FILE, the new SQLite file to import into. ${USAGE}`);
  const apiKeys = env.SIMULATOR_API_KEYS?.split(",")
    .map((key) => key.trim())
    .filter(Boolean);
  try {
    checkApiKeys("SIMULATOR_API_KEYS", apiKeys);
  } catch (error) {
    throw new SimulatorUsageError((error as Error).message.replace(/^SIMULATOR_API_KEYS\[(\d+)\]/, (_, i) => `SIMULATOR_API_KEYS (key ${Number(i) + 1})`));
  }
  const stepSeconds = number("--step-seconds", values["step-seconds"]);
  const seedDeployments = number("--seed-deployments", values["seed-deployments"] ?? env.SIMULATOR_SEED_DEPLOYMENTS);
  const latency = latencyFlag(values.latency);
  const faults = failFlags(values.fail);
  const simulator = await startSimulator({
    ...(latency !== undefined ? { latency } : {}),
    ...(faults.length > 0 ? { faults } : {}),
    port: number("--port", values.port) ?? number("PORT", env.PORT) ?? 4011,
    host: values.host ?? "127.0.0.1",
    quiet: values.quiet,
    allowedHosts: each("--allowed-host", values["allowed-host"], parseAllowedHost),
    corsOrigins: each("--cors-origin", values["cors-origin"], parseCorsOrigin),
    ...(stateFile ? { stateFile } : {}),
    ...(importState !== undefined ? { importStateFrom: importState } : {}),
    ...(apiKeys?.length ? { apiKeys } : {}),
    ...(stepSeconds !== undefined ? { stepSeconds } : {}),
    ...(seedDeployments !== undefined ? { seedDeployments } : {}),
  }).catch((error: unknown) => {
    // A latency or fault out of range (createSimulator names the field): a usage error naming the flag.
    const m = error instanceof TypeError ? /^createSimulator: (latency|faults\[(\d+)\])(.*)$/.exec(error.message) : null;
    if (!m) throw error;
    throw new SimulatorUsageError(m[1] === "latency" ? `--latency:${m[3]}` : `--fail ${values.fail?.[Number(m[2])]}:${m[3]}`);
  });
  console.log(simulator.url);
  if (!values.quiet) console.error(`Deployment Management Service simulator listening at ${simulator.url} (Ctrl+C stops it)`);
  const stop = () => {
    simulator.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

function parseFlags(args: string[]) {
  try {
    return parseArgs({
      args,
      options: {
        port: { type: "string" },
        host: { type: "string" },
        state: { type: "string" },
        "import-state": { type: "string" },
        "step-seconds": { type: "string" },
        "seed-deployments": { type: "string" },
        "allowed-host": { type: "string", multiple: true },
        "cors-origin": { type: "string", multiple: true },
        latency: { type: "string" },
        fail: { type: "string", multiple: true },
        quiet: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (error) {
    // util.parseArgs names the flag (unknown option, missing value); say it as a usage error.
    throw new SimulatorUsageError(`${(error as Error).message} ${USAGE}`);
  }
}
