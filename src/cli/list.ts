// What `dms deployments` and `dms revisions` share: reading a list with paginate up to --limit items,
// printing it as a table or as JSON lines, and reporting an API error.
import { annotateError } from "./github.js";
import { EXIT } from "./exit-codes.js";
import type { Output, Io } from "./output.js";
import { describeError } from "./problem.js";
import { terminalSafe } from "./terminal-text.js";

/** At most `limit` items of an async iterable. */
export async function take<T>(items: AsyncIterable<T>, limit: number): Promise<T[]> {
  const out: T[] = [];
  if (limit <= 0) return out;
  for await (const item of items) {
    out.push(item);
    if (out.length >= limit) break;
  }
  return out;
}

/** Columns padded to their widest cell; the last column is not padded. */
function table(header: string[], rows: string[][]): string[] {
  // Cells come from the server: escaped first, so that a newline cannot forge a row and widths are right.
  rows = rows.map((row) => row.map((cell) => terminalSafe(String(cell))));
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const format = (cells: string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join("  ")
      .trimEnd();
  return [format(header), ...rows.map(format)];
}

/**
 * Prints the items read: one JSON line each under --json (echo(): secret values become ***, a CI
 * log is no place for them; every other field stays as sent), else a table, or "no <noun>".
 */
export function printList<T extends object>(io: Io, output: Output, noun: string, items: readonly T[], header: string[], row: (item: T) => string[]): number {
  if (output.json) {
    let shown: T[];
    try {
      shown = items.map((item) => io.redactor.data(item));
    } catch (error) {
      // An item nested too deep to show (NestedTooDeepError) is the service's answer gone wrong: exit 6.
      return listFailed(io, output, noun, error, "");
    }
    for (const item of shown) output.event(item);
    return EXIT.ok;
  }
  if (items.length === 0) {
    output.diagnostic(`no ${noun}`);
    return EXIT.ok;
  }
  for (const line of table(header, items.map(row))) output.line(line);
  return EXIT.ok;
}

/** Prints a failed list call and returns exit code 6. */
export function listFailed(io: Io, output: Output, command: string, error: unknown, baseUrl: string): number {
  // What the server wrote in its error is masked where it quotes the key or a secret back.
  const described = describeError(io.redactor.error(error), baseUrl);
  output.diagnostic(`dms ${command}: ${described.summary}`, "red");
  for (const line of described.details) output.diagnostic(line);
  if (output.json) output.event({ event: "result", exit_code: EXIT.apiError, error: described.json });
  annotateError(io, `dms ${command}`, described.summary);
  return EXIT.apiError;
}
