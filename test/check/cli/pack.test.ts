// `npx dms` from the packed tarball in a fresh project: the bin is installed with its shebang, answers
// --help, runs the simulator with `dms simulate` and deploys to it, all from node_modules.
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, readlink, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../support/document.js";
import { cleanEnv, jsonLines } from "../../cli/support.js";
import { packedTarball } from "../../support/packed.js";
import { npm, run } from "../../support/run.js";

let work: string;
let consumer: string;
let bin: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "dms-cli-pack-"));
  consumer = join(work, "consumer");
  await mkdir(consumer);
  await writeFile(join(consumer, "package.json"), JSON.stringify({ name: "ci-consumer", private: true }));
  // The tarball test/global-setup.ts packed once for the run.
  const install = ["install", "--save-dev", "--no-audit", "--no-fund", packedTarball()];
  // The dependencies (openapi-fetch, ajv) come from the npm cache; --prefer-offline where it lacks something.
  await run(npm, [...install, "--offline"], { cwd: consumer }).catch(() => run(npm, [...install, "--prefer-offline"], { cwd: consumer }));
  bin = join(consumer, "node_modules/.bin/dms");
}, 180_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe("dms from the packed tarball", () => {
  it("installs node_modules/.bin/dms, a node script with its shebang", async () => {
    expect(await readlink(bin)).toBe("../deployment-management-api/dist/cli/main.js");
    expect((await readFile(bin, "utf8")).split("\n")[0]).toBe("#!/usr/bin/env node");
  });

  it("npx dms --help answers, run through its shebang", async () => {
    const { stdout } = await run("npx", ["--offline", "dms", "--help"], { cwd: consumer, env: cleanEnv() });
    expect(stdout).toMatch(/^dms: deploy to the Deployment Management Service/);
    expect(stdout).toMatch(/\n {2}130 /);
  });

  it("dms simulate starts the simulator and dms deploy deploys to it", async () => {
    const simulator = spawn(bin, ["simulate", "--port", "0", "--step-seconds", "0.05", "--quiet"], { cwd: consumer, env: cleanEnv() });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        simulator.on("exit", (code) => reject(new Error(`dms simulate exited with ${code}`)));
        createInterface({ input: simulator.stdout }).once("line", resolve);
      });
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const env = cleanEnv({ DMS_BASE_URL: url, DMS_API_KEY: "pack-test" });
      const listed = jsonLines((await run(bin, ["deployments", "--limit", "1", "--json"], { cwd: consumer, env })).stdout);
      expect(listed).toHaveLength(1);
      const { stdout } = await run(bin, ["deploy", listed[0].id, "--ref", "main", "--interval", "20ms", "--json"], { cwd: consumer, env });
      expect(jsonLines(stdout).at(-1)).toMatchObject({ event: "result", deployment_id: listed[0].id, status: "DEPLOYED", exit_code: 0 });
    } finally {
      const exited = new Promise<number | null>((resolve) => simulator.once("close", resolve));
      simulator.kill("SIGINT");
      // The simulator's own SIGINT handler closes it and exits 0.
      expect(await exited).toBe(0);
    }
  });

  it("npm exec dms runs from a checkout too (the compiled bin is executable)", async () => {
    const { stdout } = await run(npm, ["exec", "--no", "--", "dms", "--help"], { cwd: ROOT, env: cleanEnv() });
    expect(stdout).toMatch(/^Usage: dms <command>/m);
  });
});
