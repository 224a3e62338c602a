#!/usr/bin/env node
// dms: the command line for CI/CD. This entry loads only the help texts; each command's module, and
// the client or the simulator it needs, is imported when that command runs, so `dms --help` is quick.
import { HELP } from "./help.js";

const COMMANDS = ["deploy", "wait", "deployments", "revisions", "simulate"] as const;
type Command = (typeof COMMANDS)[number];

function isCommand(name: string | undefined): name is Command {
  return (COMMANDS as readonly string[]).includes(name ?? "");
}

function wantsHelp(args: string[]): boolean {
  const end = args.indexOf("--");
  return (end === -1 ? args : args.slice(0, end)).some((a) => a === "--help" || a === "-h");
}

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined) {
    process.stderr.write(HELP.dms!);
    return 2;
  }
  if (name === "--help" || name === "-h") {
    process.stdout.write(HELP.dms!);
    return 0;
  }
  if (name === "help") {
    const topic = args[0] ?? "dms";
    if (!HELP[topic]) return unknownCommand(topic);
    process.stdout.write(HELP[topic]!);
    return 0;
  }
  if (name === "--version" || name === "-v") {
    const { createRequire } = await import("node:module");
    const { version } = createRequire(import.meta.url)("../../package.json") as { version: string };
    process.stdout.write(`${version}\n`);
    return 0;
  }
  if (!isCommand(name)) return unknownCommand(name);
  if (wantsHelp(args)) {
    process.stdout.write(HELP[name]!);
    return 0;
  }
  if (name === "simulate") {
    const { run } = await import("./commands/simulate.js");
    const failed = await run(args);
    if (failed !== undefined) return failed;
    // The simulator keeps the process alive until a signal stops it.
    return -1;
  }
  return runCommand(name, args);
}

async function runCommand(name: Exclude<Command, "simulate">, args: string[]): Promise<number> {
  const [{ Redactor }, { UsageError }, { annotateError }] = await Promise.all([import("./redact.js"), import("./usage.js"), import("./github.js")]);
  const io = { stdout: process.stdout, stderr: process.stderr, env: process.env, redactor: new Redactor() };
  try {
    const module =
      name === "deploy"
        ? await import("./commands/deploy.js")
        : name === "wait"
          ? await import("./commands/wait.js")
          : name === "deployments"
            ? await import("./commands/deployments.js")
            : await import("./commands/revisions.js");
    return await module.run(args, io);
  } catch (error) {
    if (!(error instanceof UsageError)) {
      const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
      process.stderr.write(io.redactor.apply(`dms ${name}: unexpected error: ${text}`) + "\n");
      return 1;
    }
    const message = io.redactor.apply(`dms ${name}: ${error.message}`);
    process.stderr.write(`${message}\nRun "dms ${name} --help" for its flags.\n`);
    annotateError(io, `dms ${name}`, error.message);
    // With --json the last line on stdout is always a result object.
    if (args.includes("--json"))
      process.stdout.write(JSON.stringify({ event: "result", exit_code: 2, error: { kind: "usage", message: io.redactor.apply(error.message) } }) + "\n");
    return 2;
  }
}

function unknownCommand(name: string): number {
  process.stderr.write(`dms: unknown command "${name}". Commands: ${COMMANDS.join(", ")}. "dms --help" shows them.\n`);
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
