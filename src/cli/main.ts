#!/usr/bin/env node
// dms: the command line for CI/CD. This entry wires the process (its arguments, its streams, its
// environment and exit code) to runDms (dispatch.ts), which does the rest.
import type { Io } from "./output.js";
import { runDms } from "./dispatch.js";

/**
 * A closed stdout or stderr (`dms deployments | head -1`, a runner that went away) is not an error
 * of the command: what is written to it afterwards is dropped, and the command ends as it would
 * have (a deploy still waits and writes its GitHub outputs). Without this, Node reports
 * "Error: write EPIPE" and a stack trace.
 */
function quietOnClose(stream: NodeJS.WriteStream): Io["stdout"] {
  let closed = false;
  stream.on("error", () => {
    closed = true;
  });
  return {
    isTTY: stream.isTTY,
    write: (text: string) => (closed ? false : stream.write(text)),
  };
}

main();

function main(): void {
  const io = { stdout: quietOnClose(process.stdout), stderr: quietOnClose(process.stderr), env: process.env };
  runDms(process.argv.slice(2), io).then(
    (code) => {
      if (code >= 0) process.exitCode = code;
    },
    // What runDms did not catch itself (its own commands' errors are exit 70 there): still a bug of
    // dms, still 70, never 1 (a failed revision).
    async (error: unknown) => {
      const [{ terminalSafe }, { EXIT }] = await Promise.all([import("./terminal-text.js"), import("./exit-codes.js")]);
      process.stderr.write(
        `dms: unexpected error (a bug in dms; please report it): ${terminalSafe(error instanceof Error ? (error.stack ?? error.message) : String(error))}\n`,
      );
      process.exitCode = EXIT.internal;
    },
  );
}
