#!/usr/bin/env node
// dms-simulator: runs the stateful simulator until SIGINT or SIGTERM (flags: src/simulator/node/cli-main.ts).
import { runSimulatorCli } from "./cli-main.js";
import { StateFileError } from "./state-file.js";

runSimulatorCli(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof StateFileError ? error.message : `dms-simulator: ${(error as Error).message ?? error}`);
  process.exit(1);
});
