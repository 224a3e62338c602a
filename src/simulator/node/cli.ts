#!/usr/bin/env node
// dms-simulator: runs the stateful simulator until SIGINT or SIGTERM (flags: src/simulator/node/cli-main.ts).
// A bad flag or value exits 2 with the usage line, a port in use 1 with one line, as every local server.
import { PortInUseError, portInUseLine } from "../../local-server/listen.js";
import { terminalSafe, usageErrorLines } from "../../shared/terminal-text.js";
import { runSimulatorCli, SimulatorUsageError, USAGE } from "./cli-main.js";
import { SqliteUnavailableError, StateFileError } from "./sqlite/index.js";

runSimulatorCli(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof PortInUseError) {
    console.error(portInUseLine("dms-simulator", error.port, "--port or PORT"));
    process.exit(1);
  }
  if (error instanceof SimulatorUsageError) {
    console.error(usageErrorLines("dms-simulator", error.message, USAGE));
    process.exit(2);
  }
  // A flag or a path as typed may hold control characters: shown, not obeyed by the terminal.
  console.error(terminalSafe(error instanceof StateFileError ? error.message : `dms-simulator: ${(error as Error).message ?? error}`));
  // --state on a Node without node:sqlite: exit 2, the code of `dms simulate` for a setup problem.
  process.exit(error instanceof SqliteUnavailableError ? 2 : 1);
});
