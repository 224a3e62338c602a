// generated/ is exactly what the build produces from openapi/: a fresh forced build into a
// temporary folder matches the committed files byte for byte.
import { mkdtemp, readFile, readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/document.js";
import { run } from "../support/run.js";

async function files(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && e.name !== ".stamps.json")
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

describe("generated/", () => {
  it("matches a fresh build of openapi/", async () => {
    const out = await mkdtemp(join(tmpdir(), "dms-drift-"));
    await run(process.execPath, ["tools/build/build.ts", "--force", "--quiet", "--out", out], { cwd: ROOT });
    const committed = await files(join(ROOT, "generated"));
    expect(await files(out)).toEqual(committed);
    for (const f of committed) {
      const [a, b] = await Promise.all([readFile(join(ROOT, "generated", f)), readFile(join(out, f))]);
      expect(a.equals(b), `generated/${f} differs from a fresh build: run npm run build and commit`).toBe(true);
    }
    // The stamps too: a stamp made from other inputs would make a fresh clone's first `npm run build`
    // rewrite generated/.stamps.json, a committed file.
    const [stamps, fresh] = await Promise.all([readFile(join(ROOT, "generated/.stamps.json"), "utf8"), readFile(join(out, ".stamps.json"), "utf8")]);
    expect(JSON.parse(stamps), "generated/.stamps.json was made from other inputs: run npm run build and commit").toEqual(JSON.parse(fresh));
  });
});
