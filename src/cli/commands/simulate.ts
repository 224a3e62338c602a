// dms simulate [...]: the simulator's own command line (dms-simulator), run in this process so that
// Ctrl+C and SIGTERM reach its handlers directly. Loaded only for this command.
import { fileURLToPath } from "node:url";

export async function run(args: string[]): Promise<void> {
  const cli = new URL("../../simulator/cli.js", import.meta.url);
  // dms-simulator reads its flags from process.argv, as it does when it is the program run.
  process.argv = [process.argv[0]!, fileURLToPath(cli), ...args];
  await import(cli.href);
}
