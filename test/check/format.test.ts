// The formatter and the linter (Biome, biome.json) over src/, tools/ and test/: zero findings.
// `npx biome check --write .` fixes most of what this reports.
import { join } from "node:path";
import { expect, it } from "vitest";
import { ROOT } from "../support/document.js";
import { run } from "../support/run.js";

it("biome ci reports no formatting or lint findings", async () => {
  const biome = join(ROOT, "node_modules", "@biomejs", "biome", "bin", "biome");
  const result = await run(process.execPath, [biome, "ci", "--max-diagnostics=20", "."], { cwd: ROOT, maxBuffer: 1 << 24 }).then(
    ({ stdout, stderr }) => ({ ok: true, output: stdout + stderr }),
    (error) => ({ ok: false, output: `${error.stdout ?? ""}${error.stderr ?? ""}` }),
  );
  expect(result.ok, result.output).toBe(true);
  expect(result.output).toMatch(/Checked \d+ files?/);
});
