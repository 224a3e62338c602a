#!/usr/bin/env node
// dms: the command line for CI/CD. This entry loads only the help texts (and the command specs
// they are built from); each command's module, and the client or the simulator it needs, is
// imported when that command runs, so `dms --help` is quick.
import { HELP } from "./help.js";
import type { Io } from "./output.js";

type Run = (args: string[], io: Io) => Promise<number>;

/** Each API command and the module that runs it, loaded on use. */
const API_COMMANDS: Record<string, () => Promise<{ run: Run }>> = {
  deploy: () => import("./commands/deploy.js"),
  wait: () => import("./commands/wait.js"),
  rollback: () => import("./commands/rollback.js"),
  deployments: () => import("./commands/deployments.js"),
  revisions: () => import("./commands/revisions.js"),
  mcp: () => import("./commands/mcp.js"),
};
const COMMANDS = [...Object.keys(API_COMMANDS), "simulate"];

function wantsHelp(args: string[]): boolean {
  const end = args.indexOf("--");
  return (end === -1 ? args : args.slice(0, end)).some((a) => a === "--help" || a === "-h");
}

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

async function main(argv: string[]): Promise<number> {
  const stdout = quietOnClose(process.stdout);
  const stderr = quietOnClose(process.stderr);
  const [name, ...args] = argv;
  if (name === undefined) {
    stderr.write(HELP.dms!);
    return 2;
  }
  if (name === "--help" || name === "-h") {
    stdout.write(HELP.dms!);
    return 0;
  }
  if (name === "help") {
    const topic = args[0] ?? "dms";
    if (!HELP[topic]) return unknownCommand(topic);
    stdout.write(HELP[topic]!);
    return 0;
  }
  if (name === "--version" || name === "-v") {
    const { createRequire } = await import("node:module");
    const { version } = createRequire(import.meta.url)("../../package.json") as { version: string };
    stdout.write(`${version}\n`);
    return 0;
  }
  if (!COMMANDS.includes(name)) return unknownCommand(name);
  if (wantsHelp(args)) {
    stdout.write(HELP[name]!);
    return 0;
  }
  if (name === "simulate") {
    const { run } = await import("./commands/simulate.js");
    const failed = await run(args);
    if (failed !== undefined) return failed;
    // The simulator keeps the process alive until a signal stops it.
    return -1;
  }
  const { Masker } = await import("../shared/mask.js");
  return runCommand(name, args, { stdout, stderr, env: process.env, redactor: new Masker() });
}

async function runCommand(name: string, args: string[], io: Io): Promise<number> {
  const [{ UsageError }, { annotateError }, { terminalSafe }] = await Promise.all([import("./usage.js"), import("./github.js"), import("./terminal-text.js")]);
  try {
    const module = await API_COMMANDS[name]!();
    return await module.run(args, io);
  } catch (error) {
    if (!(error instanceof UsageError)) {
      const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
      io.stderr.write(`${io.redactor.quoted(`dms ${name}: unexpected error: ${text}`)}\n`);
      return 1;
    }
    const message = io.redactor.quoted(terminalSafe(error.message));
    io.stderr.write(`dms ${name}: ${message}\nRun "dms ${name} --help" for its flags.\n`);
    annotateError(io, `dms ${name}`, error.message);
    // With --json the last line on stdout is always a result object.
    if (args.includes("--json")) io.stdout.write(`${JSON.stringify({ event: "result", exit_code: 2, error: { kind: "usage", message } })}\n`);
    return 2;
  }
}

function unknownCommand(name: string): number {
  process.stderr.write(`dms: unknown command ${JSON.stringify(name)}. Commands: ${COMMANDS.join(", ")}. "dms --help" shows them.\n`);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`dms: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
