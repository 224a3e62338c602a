#!/usr/bin/env node
// dms-simulator: runs the stateful simulator until SIGINT or SIGTERM (flags: src/simulator/node/cli-main.ts).
import { runSimulatorCli } from "./cli-main.js";
import { SqliteUnavailableError, StateFileError } from "./sqlite/index.js";

runSimulatorCli(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof StateFileError ? error.message : `dms-simulator: ${(error as Error).message ?? error}`);
  // --state on a Node without node:sqlite: exit 2, the code of `dms simulate` for a setup problem.
  process.exit(error instanceof SqliteUnavailableError ? 2 : 1);
});
