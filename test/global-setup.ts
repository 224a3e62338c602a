// Compiles src/ to dist/ once before any suite runs. The pack tests then run `npm pack
// --ignore-scripts`, so no two suites compile into dist/ at the same time. tsc emits JavaScript
// even when there are type errors; those are reported by test/typecheck.test.ts, so a type error
// fails that test instead of stopping every suite here.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export default function setup(): void {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const result = spawnSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.build.json"], { cwd: root, encoding: "utf8" });
  if (result.error) throw result.error;
  if (result.status !== 0) console.warn(`tsc reported errors (dist/ was still written):\n${result.stdout}${result.stderr}`);
}
