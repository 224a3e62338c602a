// The simulator's command line (the dms-simulator bin, and `dms simulate`): flags and environment
// to startSimulator, the URL as the only line on stdout, every other message on stderr, and a clean
// stop on SIGINT or SIGTERM.
//   dms-simulator [--port N] [--host H] [--state FILE [--import-state FILE_1_0]] [--step-seconds S] [--seed-deployments N]
//                 [--allowed-host NAME]... [--cors-origin ORIGIN]... [--quiet]
// Environment: PORT, SIMULATOR_STATE, SIMULATOR_STEP_SECONDS, SIMULATOR_SEED_DEPLOYMENTS, SIMULATOR_API_KEYS (comma-separated).
import { parseArgs } from "node:util";
import { parseAllowedHost, parseCorsOrigin } from "../../local-server/policy.js";
import { startSimulator } from "./start.js";

/** A flag or environment value the simulator cannot use; the message names it. */
export class SimulatorUsageError extends Error {
  override readonly name = "SimulatorUsageError";
}

const USAGE =
  "Usage: dms-simulator [--port N] [--host H] [--state FILE [--import-state FILE_1_0]] [--step-seconds S] [--seed-deployments N] " +
  "[--allowed-host NAME]... [--cors-origin ORIGIN]... [--quiet]";

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
  const apiKeys = env.SIMULATOR_API_KEYS?.split(",").filter(Boolean);
  const stepSeconds = number("--step-seconds", values["step-seconds"]);
  const seedDeployments = number("--seed-deployments", values["seed-deployments"] ?? env.SIMULATOR_SEED_DEPLOYMENTS);
  const simulator = await startSimulator({
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
        quiet: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (error) {
    // util.parseArgs names the flag (unknown option, missing value); say it as a usage error.
    throw new SimulatorUsageError(`${(error as Error).message} ${USAGE}`);
  }
}
