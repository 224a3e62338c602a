// The state file. Every acknowledged write is on disk before the answer: write a temporary file,
// fsync it, rename it over the old one and fsync the directory, so a kill -9 at any moment leaves
// either the old or the new state, never half of one. A file that cannot be read is never written.
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { State } from "./model.js";

export class StateFileError extends Error {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(
      `Simulator state file ${file} cannot be used: ${reason}. The file was left untouched; ` +
        `repair it, move it away to start again from the seed, or start without --state.`,
    );
    this.name = "StateFileError";
  }
}

/** The saved state, or undefined when the file does not exist yet. Throws StateFileError when it is unusable. */
export function readState(file: string): State | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new StateFileError(file, (error as Error).message);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new StateFileError(file, `it is not valid JSON (${(error as Error).message})`);
  }
  const problem = shapeProblem(parsed);
  if (problem) throw new StateFileError(file, problem);
  return parsed as State;
}

function shapeProblem(value: unknown): string | undefined {
  if (!value || typeof value !== "object" || Array.isArray(value)) return "it does not hold a JSON object";
  const s = value as Partial<State>;
  if (s.format !== "dms-simulator-state") return 'it is not a simulator state file (no "format": "dms-simulator-state")';
  if (s.version !== 1) return `its version ${JSON.stringify(s.version)} is not supported (expected 1)`;
  for (const key of ["deployments", "listeners", "providers"] as const) {
    if (!Array.isArray(s[key])) return `"${key}" is not an array`;
  }
  if (!s.connections || typeof s.connections !== "object") return '"connections" is missing';
  if (!s.repositories || typeof s.repositories !== "object") return '"repositories" is missing';
  if (typeof s.clock_offset_ms !== "number" || typeof s.last_created_ms !== "number") return "the clock fields are missing";
  for (const [i, d] of s.deployments!.entries()) {
    if (!d || typeof d !== "object" || !d.deployment || typeof d.deployment.id !== "string" || !Array.isArray(d.revisions)) {
      return `deployment ${i} is malformed`;
    }
  }
  return undefined;
}

export function writeState(file: string, state: State): void {
  const temp = join(dirname(file), `.${basename(file)}.${process.pid}.tmp`);
  const fd = openSync(temp, "w");
  try {
    writeSync(fd, JSON.stringify(state));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, file);
  // The rename itself is only durable once the directory entry is flushed.
  try {
    const dir = openSync(dirname(file), "r");
    try {
      fsyncSync(dir);
    } finally {
      closeSync(dir);
    }
  } catch {
    // Some platforms (Windows) cannot open a directory; the rename is still atomic there.
  }
}
