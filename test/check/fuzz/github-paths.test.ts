// GITHUB_OUTPUT and GITHUB_STEP_SUMMARY naming every kind of path (test/check/fuzz/file-kinds.ts): a
// regular file or a new one gets the outputs; anything else (a FIFO, whose open would wait for a
// reader forever, a directory, a socket, a device, a dangling symlink) is one line naming the
// variable, the path and what it is, and the deploy goes on to its own exit code.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SEED_IDS } from "../../../src/simulator/core/seed.js";
import { type RunningSimulator, startSimulator } from "../../../src/simulator/node/start.js";
import { startDms } from "../../cli/support.js";
import { makeFileKinds } from "./file-kinds.js";

const work = mkdtempSync(join(tmpdir(), "dms-github-paths-"));
let sim: RunningSimulator;
const closers: (() => Promise<void>)[] = [];
beforeAll(async () => {
  sim = await startSimulator({ port: 0, quiet: true, stepSeconds: 0.01 });
});
afterAll(async () => {
  await sim?.close();
  for (const close of closers) await close();
  rmSync(work, { recursive: true, force: true });
});

/** dms deploy --no-wait, stopped by a watchdog if it blocks (the failure this guards against). */
function deploy(env: Record<string, string>) {
  const run = startDms(["deploy", SEED_IDS.deployment_id, "--ref", "main", "--no-wait"], { DMS_BASE_URL: sim.url, DMS_API_KEY: "k", ...env });
  const watchdog = setTimeout(() => run.child.kill("SIGKILL"), 20_000);
  return run.ended.finally(() => clearTimeout(watchdog));
}

describe("GitHub files of every kind", () => {
  for (const variable of ["GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY"]) {
    it(`${variable}: a regular or new file is written; anything else is one line naming it, and the exit code is the deploy's`, async () => {
      const { kinds, close } = await makeFileKinds(join(work, variable));
      closers.push(close);
      // One at a time per file: deploys of the same deployment would interrupt each other's revision.
      for (const kind of kinds) {
        const result = await deploy({ [variable]: kind.path, GITHUB_ACTIONS: "true" });
        const label = `${variable} on ${kind.name}: ${result.stderr}`;
        expect(result.signal, label).toBeNull();
        expect(result.code, label).toBe(0);
        const lines = result.stderr.split("\n").filter((line) => line.startsWith("dms: cannot write"));
        if (kind.usable) {
          expect(lines, label).toEqual([]);
          const written = readFileSync(kind.path, "utf8");
          expect(written, label).toContain(variable === "GITHUB_OUTPUT" ? `deployment_id=${SEED_IDS.deployment_id}\n` : SEED_IDS.deployment_id);
          continue;
        }
        expect(lines, label).toHaveLength(1);
        expect(lines[0], label).toContain(`dms: cannot write ${variable} (${kind.path})`);
        expect(lines[0], label).toMatch(kind.says!);
        expect(lines[0], label).toMatch(/continuing without it \(the exit code is unchanged\)$/);
      }
    });
  }
});
