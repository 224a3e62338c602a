// Before any suite of `npm run check` runs: compiles src/ to dist/ with its declarations when a source
// changed since the last compile (tools/build/compile-if-stale.ts --declarations: tsc -b, both
// projects), marking the bins executable; then
// packs that dist/ once (`npm pack --json --ignore-scripts`, so prepack does not compile again) into
// a temp folder, and provides the tarball's path and npm's entry for it to the tests
// (test/support/packed.ts). The tests that install the package install this one tarball, so no two
// suites pack or compile into dist/ at once. The teardown removes the folder.
// tsc emits JavaScript even when there are type errors; those are reported by
// test/check/typecheck.test.ts, so a type error fails that test instead of stopping every suite here.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";
import type { PackEntry } from "../support/packed.js";

const npm = process.platform === "win32" ? "npm.cmd" : "npm";

export default function setup({ provide }: TestProject): () => void {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  const result = spawnSync(process.execPath, ["tools/build/compile-if-stale.ts", "--declarations"], { cwd: root, encoding: "utf8" });
  if (result.error) throw result.error;
  if (result.status !== 0) console.warn(`compiling src/ reported:\n${result.stdout}${result.stderr}`);

  const work = mkdtempSync(join(tmpdir(), "dms-packed-"));
  const stdout = execFileSync(npm, ["pack", "--json", "--ignore-scripts", "--pack-destination", work], { cwd: root, encoding: "utf8", maxBuffer: 1 << 24 });
  // npm may print notices before the JSON array.
  const entry = (JSON.parse(stdout.slice(stdout.indexOf("[\n"))) as PackEntry[])[0]!;
  provide("packedTarball", join(work, entry.filename));
  provide("packEntry", entry);
  return () => rmSync(work, { recursive: true, force: true });
}
