// GitHub Actions workflow commands: `::name props::message` lines the runner reads from a step's
// output. Their data is escaped so that a value cannot end the command or start another one.
import { jsonSafe, terminalSafe } from "./terminal-text.js";

/** Escapes a workflow command's message: %, CR and LF would end or corrupt it. */
export function escapeMessage(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

/** Escapes a property value (`title=...`): also the `:` and `,` that end it. */
export function escapeProperty(text: string): string {
  return escapeMessage(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

/** The line that tells the runner to hide `value` everywhere in the job's log. */
export function addMask(value: string): string {
  return `::add-mask::${escapeMessage(value)}\n`;
}

/**
 * The forms of a secret value the runner is told to hide, each once: the value; each of its lines
 * (the runner matches within one line of the log, so a multi-line value such as a PEM key or a JSON
 * service account is hidden only line by line); and the value as dms prints it, with control
 * characters and line breaks escaped (terminalSafe, in text) and as a JSON string's content (--json).
 */
export function maskForms(value: string): string[] {
  const lines = value.split(/\r\n|\r|\n/).filter((line) => line.trim() !== "");
  const printed = [terminalSafe(value), jsonSafe(JSON.stringify(value)).slice(1, -1)];
  return [...new Set([value, ...(lines.length > 1 ? lines : []), ...printed])].filter((form) => form !== "");
}
