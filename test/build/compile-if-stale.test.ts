// tools/build/compile-if-stale.ts, which every command that runs dist/ goes through (npm start, npm run
// simulate, npm run dms, npm run bench, npm test's global setup): an output whose source is gone is
// deleted, so a launcher that names a moved file fails here as it would on a fresh clone.
import { existsSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../support/document.js";
import { run } from "../support/run.js";

const orphanDir = join(ROOT, "dist", "simulator", "moved-away");

afterAll(async () => {
  await rm(orphanDir, { recursive: true, force: true });
});

describe("compile-if-stale", () => {
  it("deletes outputs whose source is gone, keeps the ones that have a source", async () => {
    await mkdir(orphanDir, { recursive: true });
    for (const name of ["cli.js", "cli.d.ts"]) await writeFile(join(orphanDir, name), "// compiled from a source that moved\n");
    await run(process.execPath, ["tools/build/compile-if-stale.ts"], { cwd: ROOT });
    expect(existsSync(join(orphanDir, "cli.js"))).toBe(false);
    expect(existsSync(join(orphanDir, "cli.d.ts"))).toBe(false);
    expect(existsSync(join(ROOT, "dist", "simulator", "node", "cli.js"))).toBe(true);
    expect(existsSync(join(ROOT, "dist", ".tsbuildinfo"))).toBe(true);
  });

  it("every launcher in tools/run/ runs a file that compiling src/ makes", async () => {
    const { readFile, readdir } = await import("node:fs/promises");
    const launchers = await readdir(join(ROOT, "tools", "run"));
    expect(launchers.sort()).toEqual(["dms.ts", "mock.ts", "simulate.ts"]);
    for (const launcher of launchers) {
      const text = await readFile(join(ROOT, "tools", "run", launcher), "utf8");
      const path = /importCompiled(?:<\w+>)?\("(dist\/[\w/.-]+\.js)"\)/.exec(text)?.[1];
      expect(path, `${launcher} runs its compiled file with importCompiled("dist/…")`).toBeDefined();
      const source = path!.replace(/^dist\//, "src/").replace(/\.js$/, ".ts");
      expect(existsSync(join(ROOT, source)), `${launcher} runs ${path}, whose source ${source} must exist`).toBe(true);
    }
  });

  it("two launchers started at once on a fresh clone compile once: the second waits, then finds dist/ fresh", async () => {
    const { cp, mkdtemp, symlink } = await import("node:fs/promises");
    const { spawn } = await import("node:child_process");
    const { tmpdir } = await import("node:os");
    // A checkout without dist/, sharing this one's node_modules (and so its compile lock).
    const copy = await mkdtemp(join(tmpdir(), "dms-compile-"));
    try {
      for (const entry of ["src", "tools", "generated", "tsconfig.json", "tsconfig.build.json", "package.json"]) {
        await cp(join(ROOT, entry), join(copy, entry), { recursive: true });
      }
      await symlink(join(ROOT, "node_modules"), join(copy, "node_modules"), "dir");
      const once = () =>
        new Promise<{ code: number | null; stderr: string }>((resolve) => {
          const child = spawn(process.execPath, ["tools/build/compile-if-stale.ts"], { cwd: copy, stdio: ["ignore", "ignore", "pipe"] });
          let stderr = "";
          child.stderr.on("data", (chunk) => (stderr += chunk));
          child.on("close", (code) => resolve({ code, stderr }));
        });
      const both = await Promise.all([once(), once()]);
      expect(both.map((r) => r.code)).toEqual([0, 0]);
      expect(both.filter((r) => r.stderr.includes("Sources changed")).length).toBe(1);
      expect(existsSync(join(copy, "dist", "cli", "main.js"))).toBe(true);
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  });
});
