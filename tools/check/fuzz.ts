// `npm run fuzz`: the generated adversarial tests (test/check/fuzz/) for as long as asked, with a new seed
// each time unless one is given to replay. `npm test` runs the same tests with a fixed budget.
//   npm run fuzz -- --minutes 10            run about ten minutes (or --seconds N)
//   npm run fuzz -- --runs 5000             run a number of cases per property instead
//   npm run fuzz -- --seed 123 [--path P]   replay a seed (and the path a failure printed)
//   npm run fuzz -- --collect               go on past failures; print one example of each kind
// Environment instead of flags: FUZZ_SECONDS, FUZZ_RUNS, FUZZ_SEED, FUZZ_PATH, FUZZ_COLLECT=1.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const USAGE = "usage: npm run fuzz -- [--minutes N | --seconds N] [--runs N] [--seed N [--path P]] [--collect] [test/check/fuzz/<file>...]";

function parseFlags() {
  try {
    return parseArgs({
      options: {
        minutes: { type: "string" },
        seconds: { type: "string" },
        runs: { type: "string" },
        seed: { type: "string" },
        path: { type: "string" },
        collect: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    console.error(`fuzz: ${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
}
const { values, positionals } = parseFlags();
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

function number(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined || raw === "") return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) {
    console.error(`fuzz: ${name} must be a number >= 0, not "${raw}"\n${USAGE}`);
    process.exit(2);
  }
  return n;
}

const minutes = number("--minutes", values.minutes);
let seconds = number("--seconds", values.seconds) ?? (minutes !== undefined ? minutes * 60 : number("FUZZ_SECONDS", process.env.FUZZ_SECONDS));
const runs = number("--runs", values.runs) ?? number("FUZZ_RUNS", process.env.FUZZ_RUNS);
if (seconds === undefined && runs === undefined) seconds = 60;
const seed = number("--seed", values.seed) ?? number("FUZZ_SEED", process.env.FUZZ_SEED) ?? Math.floor(Math.random() * 2 ** 31);
const work = mkdtempSync(join(tmpdir(), "dms-fuzz-"));
const reportFile = join(work, "report.jsonl");

const env: NodeJS.ProcessEnv = { ...process.env, FUZZ_SEED: String(seed), FUZZ_REPORT: reportFile };
if (seconds !== undefined) env.FUZZ_SECONDS = String(seconds);
else delete env.FUZZ_SECONDS;
if (runs !== undefined) env.FUZZ_RUNS = String(runs);
else delete env.FUZZ_RUNS;
if (values.path) env.FUZZ_PATH = values.path;
if (values.collect) env.FUZZ_COLLECT = "1";

const files = positionals.length > 0 ? positionals : ["test/check/fuzz/"];
console.log(
  `fuzz: seed ${seed}, ${seconds !== undefined ? `about ${seconds} s` : ""}${runs !== undefined ? `${seconds !== undefined ? ", at most " : ""}${runs} runs per property` : ""}`,
);
console.log(
  `fuzz: replay with npm run fuzz -- --seed ${seed}${seconds !== undefined ? ` --seconds ${seconds}` : ""}${runs !== undefined ? ` --runs ${runs}` : ""}`,
);
const started = Date.now();
// The test timeout follows the budget: each property stops itself at its share of the time.
const testTimeout = seconds !== undefined ? Math.ceil(seconds * 1000 + 180_000) : 24 * 3600_000;
const child = spawn(
  process.execPath,
  ["node_modules/vitest/vitest.mjs", "run", "--config", "vitest.check.config.ts", ...files, `--testTimeout=${testTimeout}`, `--hookTimeout=120000`],
  {
    cwd: ROOT,
    env,
    stdio: "inherit",
  },
);
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => {
  /** One line of the report each property writes (test/check/fuzz/budget.ts). */
  let lines: { property: string; cases?: number; seconds?: number; known?: Record<string, number> }[] = [];
  try {
    lines = readFileSync(reportFile, "utf8")
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line));
  } catch {
    // No property reported (a failure before any ended).
  }
  rmSync(work, { recursive: true, force: true });
  const cases = lines.reduce((n, line) => n + (line.cases ?? 0), 0);
  console.log(`\nfuzz: seed ${seed}, ${Math.round((Date.now() - started) / 1000)} s, ${cases} cases`);
  for (const line of lines)
    console.log(
      `  ${line.property}: ${line.cases} cases in ${line.seconds} s${line.known && Object.keys(line.known).length > 0 ? `, known findings hit: ${JSON.stringify(line.known)}` : ""}`,
    );
  if (code !== 0) console.log(`fuzz: failed; replay with npm run fuzz -- --seed ${seed} (and --path from the failure above)`);
  process.exit(code ?? (signal ? 1 : 0));
});
