// What dms does with its command line: help, version, and each command, loaded on use. This module
// only loads the help texts (and the command specs they are built from); each command's module, and
// the client or the simulator it needs, is imported when that command runs, so `dms --help` is quick.
import { commandFlags } from "./flags.js";
import { HELP } from "./help.js";
import { COMMANDS as SPECS } from "./specs.js";
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

/** The words of a command line that can be flags: those before `--` (after it, every word is an argument). */
function flagWords(args: string[]): string[] {
  const end = args.indexOf("--");
  return end === -1 ? args : args.slice(0, end);
}

function wantsHelp(args: string[]): boolean {
  return flagWords(args).some((a) => a === "--help" || a === "-h");
}

/**
 * Whether a command line that failed to parse asked for JSON lines: the command has --json and it
 * was given as a flag. `dms mcp --json` did not (stdout is the MCP protocol's there), nor did
 * `dms deploy -- --json` (an argument).
 */
function wantsJson(name: string, args: string[]): boolean {
  const spec = SPECS[name as keyof typeof SPECS];
  return spec !== undefined && Object.hasOwn(commandFlags(spec), "json") && flagWords(args).includes("--json");
}

// The Action's one-file build (tools/release/action-build.ts) defines this as the version it was
// built from: beside the bundle there is no package.json to read.
declare const DMS_BUILD_VERSION: string | undefined;

/** The package's version: the one the bundle was built from, else package.json's beside dist/. */
async function packageVersion(): Promise<string> {
  if (typeof DMS_BUILD_VERSION === "string") return DMS_BUILD_VERSION;
  const { createRequire } = await import("node:module");
  const { version } = createRequire(import.meta.url)("../../package.json") as { version: string };
  return version;
}

/** What a run of dms writes to and reads its variables from: the process's own, or a test's. */
export type DmsIo = Pick<Io, "stdout" | "stderr" | "env">;

/**
 * One run of dms: the command line's words (without `dms`) in, the exit code out (-1: a server that
 * keeps running until a signal stops it). main.ts runs it with the process's streams; tests call it
 * in-process where no process boundary is under test.
 */
export async function runDms(argv: string[], { stdout, stderr, env }: DmsIo): Promise<number> {
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
    if (!HELP[topic]) return unknownCommand(topic, stderr);
    stdout.write(HELP[topic]!);
    return 0;
  }
  if (name === "--version" || name === "-v") {
    stdout.write(`${await packageVersion()}\n`);
    return 0;
  }
  if (!COMMANDS.includes(name)) return unknownCommand(name, stderr);
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
  return runCommand(name, args, { stdout, stderr, env, redactor: new Masker() });
}

async function runCommand(name: string, args: string[], io: Io): Promise<number> {
  const [{ UsageError }, { annotateError }, { terminalSafe }, { EXIT }] = await Promise.all([
    import("./usage.js"),
    import("./github.js"),
    import("./terminal-text.js"),
    import("./exit-codes.js"),
  ]);
  try {
    const module = await API_COMMANDS[name]!();
    return await module.run(args, io);
  } catch (error) {
    if (!(error instanceof UsageError)) return internalError(name, args, error, io, terminalSafe, EXIT.internal);
    const message = io.redactor.quoted(terminalSafe(error.message));
    // With the usage line, as every local server says a usage error (src/local-server/listen.ts).
    const usage = HELP[name]?.split("\n").find((line) => line.startsWith("Usage: "));
    io.stderr.write(`dms ${name}: ${message}\n${usage ? `${usage}\n` : ""}Run "dms ${name} --help" for its flags.\n`);
    annotateError(io, `dms ${name}`, error.message);
    // With --json the last line on stdout is always a result object.
    if (wantsJson(name, args)) io.stdout.write(`${JSON.stringify({ event: "result", exit_code: 2, error: { kind: "usage", message } })}\n`);
    return 2;
  }
}

/**
 * A failure of dms itself (a bug): exit 70, never 1 (a failed revision, which a pipeline may roll
 * back on). The stack is shown for a report, its text made safe for the terminal and masked; with
 * --json the last line is still a result object.
 */
function internalError(name: string, args: string[], error: unknown, io: Io, terminalSafe: (text: string) => string, code: number): number {
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  const message = io.redactor.quoted(terminalSafe(`unexpected error (a bug in dms; please report it): ${text}`));
  io.stderr.write(`dms ${name}: ${message}\n`);
  if (wantsJson(name, args)) {
    const summary = io.redactor.quoted(terminalSafe(error instanceof Error ? error.message : String(error)));
    io.stdout.write(`${JSON.stringify({ event: "result", exit_code: code, error: { kind: "internal", message: summary } })}\n`);
  }
  return code;
}

function unknownCommand(name: string, stderr: Io["stderr"]): number {
  stderr.write(`dms: unknown command ${JSON.stringify(name)}. Commands: ${COMMANDS.join(", ")}. "dms --help" shows them.\n`);
  return 2;
}
