// generated/ is built from the inputs its stamps name: `node tools/build/build.ts --check` hashes the
// inputs of every build step (openapi/, the build scripts, the docs page's console bundle, which holds
// the simulator core and the gate) and compares them with generated/.stamps.json, writing nothing. It
// runs here, in the fast lane, because a change to src/simulator/core or src/gate changes the docs page
// and only the check lane's drift test would see it otherwise (it rebuilds everything, seconds).
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/document.js";
import { run } from "../support/run.js";

const BUILD = join(ROOT, "tools/build/build.ts");

async function check(args: string[]): Promise<{ code: number; stderr: string }> {
  try {
    const { stderr } = await run(process.execPath, [BUILD, "--check", ...args], { cwd: ROOT });
    return { code: 0, stderr };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, stderr: failed.stderr };
  }
}

describe("generated/ and its stamps", () => {
  it("are up to date with their inputs (npm run build, then commit generated/)", async () => {
    const { code, stderr } = await check([]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
  });

  it("--check names a step whose stamp no longer matches its inputs, exits 1 and writes nothing", async () => {
    const out = await mkdtemp(join(tmpdir(), "dms-stamps-"));
    try {
      await cp(join(ROOT, "generated"), out, { recursive: true });
      const stamps = JSON.parse(await readFile(join(out, ".stamps.json"), "utf8"));
      const stale = { ...stamps, docs: "made-from-other-inputs" };
      await writeFile(join(out, ".stamps.json"), `${JSON.stringify(stale, null, 2)}\n`);
      const { code, stderr } = await check(["--out", out]);
      expect(code).toBe(1);
      expect(stderr).toBe("generated/ is out of date: docs (its inputs changed since it was built): run npm run build and commit generated/\n");
      expect(JSON.parse(await readFile(join(out, ".stamps.json"), "utf8"))).toEqual(stale);
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });
});
