// Compiles src/ to dist/ before any suite runs, when a source changed since the last compile
// (scripts/compile-if-stale.mjs, the same step `npm install` runs), and marks the bins executable.
// The pack tests then run `npm pack --ignore-scripts`, so no two suites compile into dist/ at once.
// tsc emits JavaScript even when there are type errors; those are reported by
// test/typecheck.test.ts, so a type error fails that test instead of stopping every suite here.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export default function setup(): void {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const result = spawnSync(process.execPath, ["scripts/compile-if-stale.mjs"], { cwd: root, encoding: "utf8" });
  if (result.error) throw result.error;
  if (result.status !== 0 || /tsc reported errors/.test(result.stderr)) console.warn(`compiling src/ reported:\n${result.stdout}${result.stderr}`);
}
