// GitHub Actions: step outputs in $GITHUB_OUTPUT, a markdown summary in $GITHUB_STEP_SUMMARY, and
// ::error:: annotations and ::add-mask:: when GITHUB_ACTIONS=true. The step outputs are written as
// they are (ids and statuses a later step reads); the summary and annotations are written from data
// already masked where it entered (src/shared/mask.ts), and the runner itself hides every value given
// to ::add-mask::.
import { randomUUID } from "node:crypto";
import { closeSync, constants, writeSync } from "node:fs";
import { checkUserFile, openUserFile, UnusableFileError } from "../local-server/user-file.js";
import type { Io } from "./output.js";
import { terminalSafe } from "./terminal-text.js";
import { escapeMessage, escapeProperty } from "./workflow-commands.js";

/** `name=value` lines, or the heredoc form for a value with a line break. */
function outputLines(outputs: Record<string, string>): string {
  return Object.entries(outputs)
    .map(([name, value]) => {
      if (!/[\r\n]/.test(value)) return `${name}=${value}\n`;
      const delimiter = `ghadelimiter_${randomUUID()}`;
      return `${name}<<${delimiter}\n${value}\n${delimiter}\n`;
    })
    .join("");
}

const failedFiles = new Set<string>();

/**
 * Appends to a runner file. A file that cannot be written (a missing directory, a full disk, no
 * permission) gets one line on stderr, once, and is not tried again: it does not change the exit
 * code, which tells how the deployment ended.
 */
function appendRunnerFile(io: Io, variable: "GITHUB_OUTPUT" | "GITHUB_STEP_SUMMARY", text: string): void {
  const file = io.env[variable];
  if (!file || failedFiles.has(variable)) return;
  try {
    appendTo(file, text);
  } catch (error) {
    failedFiles.add(variable);
    const reason = error instanceof UnusableFileError ? error.reason : ((error as NodeJS.ErrnoException).code ?? (error as Error).message);
    io.stderr.write(
      `dms: cannot write ${variable} (${terminalSafe(file)}): ${terminalSafe(String(reason))}; continuing without it (the exit code is unchanged)\n`,
    );
  }
}

/**
 * Appends to a path from the environment, looked at first: a FIFO would block the open until a
 * reader came (a deploy that never ends), a directory or device is no file. O_NONBLOCK keeps a path
 * swapped in between from blocking; the descriptor is checked again.
 */
function appendTo(file: string, text: string): void {
  checkUserFile(file);
  const fd = openUserFile(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT, 0o666);
  try {
    const bytes = Buffer.from(text);
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
  } finally {
    closeSync(fd);
  }
}

/** Step outputs, written as soon as each is known (a later value of the same name wins), unmasked: dms's own ids and statuses. */
export function writeGithubOutputs(io: Io, outputs: Record<string, string>): void {
  appendRunnerFile(io, "GITHUB_OUTPUT", outputLines(outputs));
}

/**
 * Text from a server as markdown text in the job summary, shown as it is: control characters and
 * line breaks escaped (terminalSafe: a value cannot start another row or a heading) and the
 * characters markdown acts on backslash-escaped (a value cannot end a table cell, open a link, an
 * image, HTML or a code span). An underscore inside a word (BUILD_FAILED) is left as it is.
 */
export function markdownText(text: string): string {
  return terminalSafe(text)
    .replace(/[\\`*~[\]<>|&!#]/g, "\\$&")
    .replace(/(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu, "\\_");
}

/** A value as a code span in the job summary when it can be one (no backtick or | to end it), else as markdownText. */
export function markdownCode(text: string): string {
  const safe = terminalSafe(text);
  return /^[^`|]+$/.test(safe) ? `\`${safe}\`` : markdownText(text);
}

export function appendGithubSummary(io: Io, markdown: string): void {
  appendRunnerFile(io, "GITHUB_STEP_SUMMARY", markdown.endsWith("\n") ? markdown : `${markdown}\n`);
}

/**
 * An error annotation on stderr (the runner reads workflow commands from both streams; stdout stays
 * JSON lines with --json).
 */
export function annotateError(io: Io, title: string, message: string): void {
  if (io.env.GITHUB_ACTIONS !== "true") return;
  io.stderr.write(`::error title=${escapeProperty(title)}::${escapeMessage(terminalSafe(message))}\n`);
}
