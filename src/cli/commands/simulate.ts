// dms simulate [...]: the simulator's own command line (dms-simulator), run in this process so that
// Ctrl+C and SIGTERM reach its handlers directly. Loaded only for this command.
import { EXIT } from "../exit-codes.js";
import { terminalSafe, usageErrorLines } from "../terminal-text.js";

/** Starts the simulator; resolves once it listens, or with the exit code when it cannot start. */
export async function run(args: string[]): Promise<number | undefined> {
  const { runSimulatorCli, SimulatorUsageError, USAGE } = await import("../../simulator/node/cli-main.js");
  const { PortInUseError, portInUseLine } = await import("../../local-server/listen.js");
  const { SqliteUnavailableError } = await import("../../simulator/node/sqlite/index.js");
  try {
    await runSimulatorCli(args);
    return undefined;
  } catch (error) {
    if (error instanceof PortInUseError) {
      process.stderr.write(`${portInUseLine("dms simulate", error.port, "--port or PORT")}\n`);
      return EXIT.failed;
    }
    const message = (error as Error).message;
    // A flag or a path as typed may hold control characters: shown, not obeyed by the terminal.
    const lines = error instanceof SimulatorUsageError ? usageErrorLines("dms simulate", message, USAGE) : `dms simulate: ${terminalSafe(message)}`;
    process.stderr.write(`${lines}\n`);
    // --state on a Node without node:sqlite: a setup problem, told in one line, like a bad flag.
    return error instanceof SimulatorUsageError || error instanceof SqliteUnavailableError ? EXIT.usage : EXIT.failed;
  }
}
