#!/usr/bin/env node
// dms-simulator: runs the stateful simulator until SIGINT or SIGTERM.
//   dms-simulator [--port N] [--host H] [--state FILE] [--step-seconds S] [--seed-deployments N]
//                 [--allowed-host NAME]... [--cors-origin ORIGIN]... [--quiet]
// Environment: PORT, SIMULATOR_STATE, SIMULATOR_STEP_SECONDS, SIMULATOR_SEED_DEPLOYMENTS, SIMULATOR_API_KEYS (comma-separated).
// stdout carries one line, the URL, so scripts can read it; every other message goes to stderr.
import { parseArgs } from "node:util";
import { parseAllowedHost, parseCorsOrigin } from "../local-server/policy.js";
import { startSimulator } from "./node/start.js";
import { StateFileError } from "./node/state-file.js";

const USAGE =
  "Usage: dms-simulator [--port N] [--host H] [--state FILE] [--step-seconds S] [--seed-deployments N] " +
  "[--allowed-host NAME]... [--cors-origin ORIGIN]... [--quiet]";

function number(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined || raw === "") return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a number >= 0, not "${raw}".`);
  return n;
}

function each(flag: string, values: string[] | undefined, parse: (value: string) => string): string[] {
  return (values ?? []).map((value) => {
    try {
      return parse(value);
    } catch (error) {
      throw new Error(`${flag}: ${(error as Error).message}.`);
    }
  });
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: "string" },
      host: { type: "string" },
      state: { type: "string" },
      "step-seconds": { type: "string" },
      "seed-deployments": { type: "string" },
      "allowed-host": { type: "string", multiple: true },
      "cors-origin": { type: "string", multiple: true },
      quiet: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const env = process.env;
  const stateFile = values.state ?? (env.SIMULATOR_STATE || undefined);
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

main().catch((error: unknown) => {
  console.error(error instanceof StateFileError ? error.message : `dms-simulator: ${(error as Error).message ?? error}`);
  process.exit(1);
});
