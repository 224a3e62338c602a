// The simulator's command line (the dms-simulator bin, and `dms simulate`): flags (read from the one
// table, flags.ts) and environment to startSimulator, the URL as the only line on stdout, every
// other message on stderr, and a clean stop on SIGINT or SIGTERM. An option startSimulator refuses
// is told as a usage error naming the flag or variable it came from.
// Environment: PORT, SIMULATOR_STATE, SIMULATOR_STEP_SECONDS, SIMULATOR_SEED_DEPLOYMENTS, SIMULATOR_API_KEYS (comma-separated).
import { parseArgs } from "node:util";
import { stopOnSignals } from "../../local-server/listen.js";
import { parseAllowedHost, parseCorsOrigin } from "../../gate/policy.js";
import { parsePort } from "../../shared/port.js";
import { flagLines, flagsSynopsis, parseOptions, repeatedOneValueFlag } from "../../shared/flag-table.js";
import { SimulatorOptionError } from "../core/options.js";
import type { ErrorShape, KeyScope, SimulatorFault, SimulatorLatency } from "../core/simulator.js";
import { SIMULATOR_FLAGS } from "./flags.js";
import { startSimulator } from "./start.js";

/** A flag or environment value the simulator cannot use; the message names it. */
export class SimulatorUsageError extends Error {
  override readonly name = "SimulatorUsageError";
}

/** The usage line every usage error is told with. */
export const USAGE = `Usage: dms-simulator ${flagsSynopsis(SIMULATOR_FLAGS)}`;
const HELP = `${USAGE}\n\n${flagLines(SIMULATOR_FLAGS, 36).join("\n")}\n\nEnvironment: SIMULATOR_API_KEYS, comma-separated keys to accept (by default any key).`;

/** --latency 200 (fixed) or --latency 100-800 (a range), in milliseconds. */
function latencyFlag(raw: string | undefined): SimulatorLatency | undefined {
  if (raw === undefined) return undefined;
  const m = /^(\d+)(?:-(\d+))?$/.exec(raw.trim());
  if (!m) throw new SimulatorUsageError(`--latency must be milliseconds (200) or a range (100-800), not "${raw}".`);
  return m[2] === undefined ? Number(m[1]) : { minMs: Number(m[1]), maxMs: Number(m[2]) };
}

/** --key-scope any, organization, or a workspace's id (a UUID): the scope of every key. */
function keyScopeFlag(raw: string | undefined): KeyScope | undefined {
  if (raw === undefined) return undefined;
  return raw === "any" || raw === "organization" ? raw : { tenantId: raw };
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

/** --port or PORT; empty is unset, as for the other variables. */
function portFrom(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined || raw === "") return undefined;
  try {
    return parsePort(name, raw);
  } catch (error) {
    throw new SimulatorUsageError(`${(error as Error).message}.`);
  }
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
    console.log(HELP);
    return;
  }
  const env = process.env;
  // An empty variable is unset, as for the others; an empty flag is a mistake (`--state "$FILE"` with
  // FILE unset), which would otherwise run a simulator that keeps nothing, or import nothing.
  for (const flag of ["state", "import-state"] as const) {
    if (values[flag] === "") throw new SimulatorUsageError(`--${flag} needs a FILE, and was given an empty value.`);
  }
  const stateFile = values.state ?? (env.SIMULATOR_STATE || undefined);
  const importState = values["import-state"];
  if (importState !== undefined && !stateFile) throw new SimulatorUsageError("--import-state needs --state FILE, the new SQLite file to import into.");
  const apiKeys = env.SIMULATOR_API_KEYS?.split(",")
    .map((key) => key.trim())
    .filter(Boolean);
  const stepSeconds = number("--step-seconds", values["step-seconds"]);
  const seedDeployments = number("--seed-deployments", values["seed-deployments"] ?? env.SIMULATOR_SEED_DEPLOYMENTS);
  const latency = latencyFlag(values.latency);
  const keyScope = keyScopeFlag(values["key-scope"]);
  const faults = failFlags(values.fail);
  const simulator = await startSimulator({
    ...(latency !== undefined ? { latency } : {}),
    ...(faults.length > 0 ? { faults } : {}),
    port: portFrom("--port", values.port) ?? portFrom("PORT", env.PORT) ?? 4011,
    host: values.host ?? "127.0.0.1",
    quiet: values.quiet === true,
    allowedHosts: each("--allowed-host", values["allowed-host"], parseAllowedHost),
    corsOrigins: each("--cors-origin", values["cors-origin"], parseCorsOrigin),
    ...(stateFile ? { stateFile } : {}),
    ...(importState !== undefined ? { importStateFrom: importState } : {}),
    ...(apiKeys?.length ? { apiKeys } : {}),
    ...(keyScope !== undefined ? { keyScope } : {}),
    ...(values.errors !== undefined ? { errors: values.errors as ErrorShape } : {}),
    ...(stepSeconds !== undefined ? { stepSeconds } : {}),
    ...(seedDeployments !== undefined ? { seedDeployments } : {}),
  }).catch((error: unknown) => {
    throw error instanceof SimulatorOptionError ? new SimulatorUsageError(usageMessage(error, values.fail)) : error;
  });
  // Before the URL is printed: whoever reads it may stop the simulator at once.
  stopOnSignals(() => simulator.close(), env);
  console.log(simulator.url);
  if (!values.quiet) console.error(`Deployment Management Service simulator listening at ${simulator.url} (Ctrl+C stops it)`);
}

/** An option startSimulator refused, said of the flag or variable it came from (--latency, --fail X, SIMULATOR_API_KEYS). */
function usageMessage(error: SimulatorOptionError, failValues: readonly string[] | undefined): string {
  const index = error.index ?? 0;
  if (error.option === "latency") return `--latency: ${error.reason}`;
  if (error.option.startsWith("faults[")) return `--fail ${failValues?.[index]}: ${error.reason}`;
  if (error.option.startsWith("apiKeys[")) return `SIMULATOR_API_KEYS (key ${index + 1}) ${error.reason}`;
  if (error.option === "errors") return `--errors ${error.reason}`;
  if (error.option === "keyScope") return `--key-scope ${error.reason}`;
  return error.message;
}

const OPTIONS = { ...parseOptions(SIMULATOR_FLAGS), help: { type: "boolean", short: "h" } } as const;

function parseFlags(args: string[]) {
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; options: typeof OPTIONS; tokens: true }>>;
  try {
    parsed = parseArgs({ args, options: OPTIONS, tokens: true });
  } catch (error) {
    // util.parseArgs names the flag (unknown option, missing value); say it as a usage error.
    throw new SimulatorUsageError((error as Error).message);
  }
  // `--port 1 --port 2`: the rule every command line shares (src/shared/flag-table.ts).
  const repeated = repeatedOneValueFlag(parsed.tokens, OPTIONS);
  if (repeated) throw new SimulatorUsageError(`${repeated}.`);
  return parsed;
}
