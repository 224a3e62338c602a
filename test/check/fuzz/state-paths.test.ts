// Every kind of path (test/check/fuzz/file-kinds.ts) through every entry that takes a state path: the
// simulator's --state, SIMULATOR_STATE, --import-state (the 1.0 file read, and the new file
// written), startSimulator({ stateFile }) and the Vite plugin's `state`. Each runs in a child
// process, so a path that blocks open() (a FIFO) fails its case instead of hanging the test: a
// usable path serves, anything else stops the start at once with a message naming the path and
// saying what it is.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { seedState } from "../../../src/simulator/core/seed.js";
import { ROOT } from "../../support/document.js";
import { makeFileKinds } from "./file-kinds.js";

const work = mkdtempSync(join(tmpdir(), "dms-state-paths-"));
const children = new Set<ChildProcess>();
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  for (const close of closers) await close();
  rmSync(work, { recursive: true, force: true });
});

const v1File = join(work, "v1.json");
writeFileSync(v1File, JSON.stringify(seedState(2, Date.now())));
let fresh = 0;
/** A path that does not exist yet, for the entries that need a second file. */
const newFile = () => join(work, `new-${fresh++}.sqlite`);

interface Outcome {
  served: boolean;
  code: number | null;
  stderr: string;
}

/**
 * Runs a child until it prints the simulator's URL (served: it is stopped) or exits. A watchdog
 * ends a child that does neither, so a start that blocks is a failed case, not a hung run.
 */
function run(args: string[], env: Record<string, string> = {}): Promise<Outcome> {
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
  children.add(child);
  let stderr = "";
  let stdout = "";
  let served = false;
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  child.stdout!.on("data", (chunk) => {
    stdout += chunk;
    if (!served && /http:\/\/\S+\n/.test(stdout)) {
      served = true;
      child.kill("SIGKILL");
    }
  });
  const watchdog = setTimeout(() => {
    stderr += "\n[test] no answer within 60 s: the start is blocked";
    child.kill("SIGKILL");
  }, 60_000);
  return new Promise((resolve) =>
    child.once("close", (code) => {
      clearTimeout(watchdog);
      children.delete(child);
      resolve({ served, code, stderr });
    }),
  );
}

const CLI = "dist/simulator/node/cli.js";
const common = ["--port", "0", "--quiet", "--seed-deployments", "2"];
/** A script that starts the simulator through an API and prints its URL (or the error's message, exit 1). */
const script = (body: string) => ["--input-type=module", "-e", `try { ${body} } catch (error) { console.error(error.message); process.exit(1); }`];

/** Each entry that takes a state path, as a child-process command for a path. */
const ENTRIES: { name: string; start: (path: string) => Promise<Outcome>; importTarget?: boolean }[] = [
  { name: "--state", start: (path) => run([CLI, ...common, "--state", path]) },
  { name: "SIMULATOR_STATE", start: (path) => run([CLI, ...common], { SIMULATOR_STATE: path }) },
  { name: "--import-state (the 1.0 file)", start: (path) => run([CLI, ...common, "--state", newFile(), "--import-state", path]) },
  { name: "--import-state (the new file)", start: (path) => run([CLI, ...common, "--state", path, "--import-state", v1File]), importTarget: true },
  {
    name: "startSimulator({ stateFile })",
    start: (path) =>
      run(
        script(
          `const { startSimulator } = await import("./dist/simulator/node/index.js"); const s = await startSimulator({ port: 0, quiet: true, seedDeployments: 2, stateFile: ${JSON.stringify(path)} }); console.log(s.url);`,
        ),
      ),
  },
  {
    name: "simulatorPlugin({ state })",
    start: (path) =>
      run(
        script(
          `const { simulatorPlugin } = await import("./dist/vite/index.js"); await simulatorPlugin({ seedDeployments: 2, state: ${JSON.stringify(path)} }).api.simulator(); console.log("http://plugin/");`,
        ),
      ),
  },
];

describe("a state path of every kind, through every entry that takes one", () => {
  for (const [i, entry] of ENTRIES.entries()) {
    it(`${entry.name}: a regular file or a new one serves; anything else is refused at once, naming the path and what it is`, async () => {
      // Kinds of its own: a usable path is written by the entry that serves on it.
      const { kinds, close } = await makeFileKinds(join(work, `entry-${i}`));
      closers.push(close);
      const cases = kinds.filter((kind) => {
        // The regular file is empty; a 1.0 file is imported into it as into a new one. The 1.0 file
        // read by --import-state must hold a 1.0 state, which no kind here does.
        if (entry.name === "--import-state (the 1.0 file)") return !kind.usable;
        // The plugin makes a missing state file's directory, as vite dev does.
        if (entry.name === "simulatorPlugin({ state })" && kind.name === "in a missing directory") return false;
        return true;
      });
      const outcomes = await Promise.all(cases.map(async (kind) => ({ kind, outcome: await entry.start(kind.path) })));
      for (const { kind, outcome } of outcomes) {
        const label = `${entry.name} on ${kind.name}: ${outcome.stderr}`;
        if (kind.usable) {
          expect(outcome.served, label).toBe(true);
          continue;
        }
        expect(outcome.served, label).toBe(false);
        expect(outcome.code, label).toBe(1);
        expect(outcome.stderr, label).toContain(kind.path);
        expect(outcome.stderr, label).toMatch(kind.says!);
      }
    });
  }
});
