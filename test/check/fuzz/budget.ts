// How much the generated tests run, and with which seed. `npm test` runs a fixed budget with a
// fixed seed (the same cases every time, in seconds); `npm run fuzz` (tools/check/fuzz.ts) sets
// FUZZ_SECONDS and/or FUZZ_RUNS to run as long as asked, with a new seed each time unless FUZZ_SEED
// replays one (FUZZ_PATH, printed beside it on a failure, replays the shrunk case at once).
import { appendFileSync } from "node:fs";
import type fc from "fast-check";

const env = process.env;
const number = (name: string): number | undefined => {
  const raw = env[name];
  if (raw === undefined || raw === "") return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n)) throw new Error(`${name} must be a number, not ${raw}`);
  return n;
};

/** True under `npm run fuzz`: budgets come from FUZZ_SECONDS / FUZZ_RUNS. */
export const LONG_RUN = env.FUZZ_SECONDS !== undefined || env.FUZZ_RUNS !== undefined;
/** The seed of `npm test`: fixed, so the suite runs the same cases every time. */
export const DEFAULT_SEED = 19;
export const SEED = number("FUZZ_SEED") ?? (LONG_RUN ? (Math.random() * 2 ** 31) | 0 : DEFAULT_SEED);

/**
 * fast-check parameters for one property. `runs` is its share of `npm test`; `share` is its share
 * (0..1) of FUZZ_SECONDS in a long run.
 */
export function budget(runs: number, share: number): fc.Parameters<unknown> {
  const parameters: fc.Parameters<unknown> = { seed: SEED, numRuns: runs, endOnFailure: false };
  if (env.FUZZ_PATH) parameters.path = env.FUZZ_PATH;
  if (!LONG_RUN) return parameters;
  const seconds = number("FUZZ_SECONDS");
  parameters.numRuns = number("FUZZ_RUNS") ?? 2 ** 31 - 1;
  if (seconds !== undefined) {
    // At least ten seconds: fast-check fails a property stopped before its first case, and one case
    // of a property that starts servers can take seconds on a loaded machine.
    parameters.interruptAfterTimeLimit = Math.max(10_000, seconds * 1000 * share);
    parameters.markInterruptAsFailure = false;
  }
  return parameters;
}

/**
 * A property's share of FUZZ_SECONDS in milliseconds, for properties that count their own rounds
 * instead of running fast-check; undefined when no time was asked for.
 */
export function shareMs(share: number): number | undefined {
  const seconds = number("FUZZ_SECONDS");
  return LONG_RUN && seconds !== undefined ? Math.max(1000, seconds * 1000 * share) : undefined;
}

/** The test timeout of a property: generous in a long run, where the time limit ends it. */
export function timeout(normalMs: number, share: number): number {
  const seconds = number("FUZZ_SECONDS");
  if (!LONG_RUN) return normalMs;
  return seconds !== undefined ? seconds * 1000 * share + 120_000 : 24 * 3600_000;
}

/** One line per property run: its name, cases, seed and time; also to FUZZ_REPORT when set (tools/check/fuzz.ts reads it). */
export function report(property: string, cases: number, startedMs: number, extra: Record<string, unknown> = {}): void {
  const line = { property, cases, seed: SEED, seconds: Math.round((Date.now() - startedMs) / 100) / 10, ...extra };
  console.log(`[fuzz] ${JSON.stringify(line)}`);
  if (env.FUZZ_REPORT) appendFileSync(env.FUZZ_REPORT, `${JSON.stringify(line)}\n`);
}
