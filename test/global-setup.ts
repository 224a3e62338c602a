// Before any suite of `npm test` runs: emits dist/'s JavaScript when a source changed since the last
// compile (tools/build/compile-if-stale.ts, the step every launcher takes: esbuild, no type-check,
// about a second), marking the bins executable, so the tests that start `dms`, the simulator or the
// mock as processes run what src/ says now. Type errors are `npm run check`'s (test/check/typecheck.test.ts).
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export default function setup(): void {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const result = spawnSync(process.execPath, ["tools/build/compile-if-stale.ts"], { cwd: root, encoding: "utf8" });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`compiling src/ failed:\n${result.stdout}${result.stderr}`);
}
