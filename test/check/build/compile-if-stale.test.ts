// tools/build/compile-if-stale.ts, which every command that runs dist/ goes through (npm start, npm run
// simulate, npm run dms, npm run bench, the test lanes' setups): an output whose source is gone is
// deleted; the launchers emit JavaScript without a type-check; the compile lock is waited on only
// while a compile of this checkout holds it; an interrupted compile leaves no lock; and a read-only
// checkout runs the dist/ it has or says in one line why it cannot.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../../support/document.js";

const copies: string[] = [];

afterAll(async () => {
  for (const copy of copies) {
    try {
      execFileSync("umount", ["-l", copy], { stdio: "ignore" });
    } catch {
      // Not a mount point.
    }
    await rm(copy, { recursive: true, force: true });
  }
});

/** A checkout without dist/, sharing this one's node_modules. */
async function checkoutCopy(): Promise<string> {
  const copy = await mkdtemp(join(tmpdir(), "dms-compile-"));
  copies.push(copy);
  for (const entry of ["src", "tools", "generated", "tsconfig.json", "tsconfig.build.json", "tsconfig.core.json", "tsconfig.node.json", "package.json"]) {
    await cp(join(ROOT, entry), join(copy, entry), { recursive: true });
  }
  await symlink(join(ROOT, "node_modules"), join(copy, "node_modules"), "dir");
  return copy;
}

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

function start(cwd: string, args: string[] = ["tools/build/compile-if-stale.ts"]): { child: ChildProcess; ended: Promise<Ended>; stderr: () => string } {
  const child = spawn(process.execPath, args, { cwd, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  const ended = new Promise<Ended>((resolve) => child.on("close", (code, signal) => resolve({ code, signal, stderr })));
  return { child, ended, stderr: () => stderr };
}

const lockOf = (copy: string) => join(copy, "dist", ".compile.lock");

describe("compile-if-stale", () => {
  it("deletes outputs whose source is gone, keeps the ones that have a source", async () => {
    // In a copy: touching this checkout's sources would make every launcher other suites start recompile.
    const copy = await checkoutCopy();
    expect((await start(copy).ended).code).toBe(0);
    const orphans = join(copy, "dist", "simulator", "moved-away");
    await mkdir(orphans, { recursive: true });
    for (const name of ["cli.js", "cli.d.ts"]) await writeFile(join(orphans, name), "// compiled from a source that moved\n");
    // A touched source makes dist/ stale, so this run compiles and clears orphans.
    const later = new Date(Date.now() + 5_000);
    await utimes(join(copy, "src", "index.ts"), later, later);
    expect((await start(copy).ended).code).toBe(0);
    expect(existsSync(join(orphans, "cli.js"))).toBe(false);
    expect(existsSync(join(orphans, "cli.d.ts"))).toBe(false);
    expect(existsSync(join(copy, "dist", "simulator", "node", "cli.js"))).toBe(true);
    expect(existsSync(join(copy, "dist", ".compiled.json"))).toBe(true);
  });

  it("every launcher in tools/run/ runs a file that compiling src/ makes", async () => {
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

  it("a launcher's compile emits JavaScript without a type-check: a type error does not stop it", async () => {
    const copy = await checkoutCopy();
    await writeFile(join(copy, "src", "type-error.ts"), "export const n: number = 'not a number';\n");
    const { ended } = start(copy);
    const result = await ended;
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain("no type-check");
    expect(await readFile(join(copy, "dist", "type-error.js"), "utf8")).toContain("not a number");
    expect(existsSync(join(copy, "dist", "cli", "main.js"))).toBe(true);
    expect(existsSync(lockOf(copy))).toBe(false);
  });

  it("two launchers started at once on a fresh clone compile once: the second waits, then finds dist/ fresh", async () => {
    const copy = await checkoutCopy();
    const both = await Promise.all([start(copy).ended, start(copy).ended]);
    expect(both.map((r) => r.code)).toEqual([0, 0]);
    expect(both.filter((r) => r.stderr.includes("Sources changed")).length).toBe(1);
    expect(existsSync(join(copy, "dist", "cli", "main.js"))).toBe(true);
  });

  it("takes over a lock whose owner is not a compile of this checkout: a live process of another program, or a pid reused", async () => {
    const copy = await checkoutCopy();
    // A live process that is not a compile here: sleep, working in another folder.
    const other = spawn("sleep", ["60"], { cwd: tmpdir(), stdio: "ignore" });
    try {
      const owners = [
        { pid: other.pid, root: copy },
        // This test's own pid, with a start time it does not have: a pid handed on after a restart.
        { pid: process.pid, started: "1", root: copy },
      ];
      for (const owner of owners) {
        await rm(join(copy, "dist"), { recursive: true, force: true });
        await mkdir(lockOf(copy), { recursive: true });
        await writeFile(join(lockOf(copy), "owner.json"), JSON.stringify(owner));
        const result = await start(copy).ended;
        expect(result.code, result.stderr).toBe(0);
        expect(result.stderr).not.toContain("waiting");
        expect(existsSync(join(copy, "dist", "cli", "main.js"))).toBe(true);
        expect(existsSync(lockOf(copy))).toBe(false);
      }
    } finally {
      other.kill("SIGKILL");
    }
  });

  it("Ctrl+C or SIGTERM during a compile ends it and leaves no lock", async () => {
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      const copy = await checkoutCopy();
      const compile = start(copy);
      await new Promise<void>((resolve) => {
        const look = () => (compile.stderr().includes("Sources changed") ? resolve() : setTimeout(look, 5));
        look();
      });
      compile.child.kill(signal);
      const result = await compile.ended;
      // Either the signal ended it mid-compile, or the compile had just finished: no lock either way.
      expect(result.signal === signal || result.code === 0, `${signal}: ${JSON.stringify(result)}`).toBe(true);
      expect(existsSync(lockOf(copy)), signal).toBe(false);
      // and the next start compiles and runs.
      expect((await start(copy).ended).code).toBe(0);
    }
  });

  it("in a read-only checkout, a launcher runs the dist/ it has, or says in one line why it cannot", async (context) => {
    const copy = await checkoutCopy();
    const readOnly = `${copy}-ro`;
    copies.push(readOnly);
    await mkdir(readOnly);
    try {
      execFileSync("mount", ["--bind", copy, readOnly], { stdio: "pipe" });
      execFileSync("mount", ["-o", "remount,bind,ro", readOnly], { stdio: "pipe" });
    } catch (error) {
      context.skip(`mount refused: ${(error as Error).message.split("\n")[0]}`);
    }
    // No dist/ at all: one line, exit 1, no stack.
    const none = await start(readOnly, ["tools/run/dms.ts", "--version"]).ended;
    expect(none.code).toBe(1);
    expect(none.stderr.trim().split("\n")).toHaveLength(1);
    expect(none.stderr).toMatch(/read-only.*no dist\/cli\/main\.js/);
    // A dist/ compiled earlier, then a source changed: it runs what it has, saying so.
    execFileSync("umount", [readOnly]);
    expect((await start(copy).ended).code).toBe(0);
    const later = new Date(Date.now() + 5_000);
    await utimes(join(copy, "src", "index.ts"), later, later);
    execFileSync("mount", ["--bind", copy, readOnly], { stdio: "pipe" });
    execFileSync("mount", ["-o", "remount,bind,ro", readOnly], { stdio: "pipe" });
    const child = spawn(process.execPath, ["tools/run/dms.ts", "--version"], { cwd: readOnly, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const code = await new Promise((resolve) => child.on("close", resolve));
    expect(code, stderr).toBe(0);
    expect(stdout.trim()).toBe(JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")).version);
    expect(stderr.trim().split("\n")).toHaveLength(1);
    expect(stderr).toMatch(/read-only.*running the dist\/cli\/main\.js it has/);
  });
});
