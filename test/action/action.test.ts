// The GitHub Action (action.yml at the root), run the way the runner runs a composite action: each
// step's `env` and `run` with the `${{ }}` expressions filled from the `with:` inputs (or their
// defaults), bash started as the runner starts it (`bash --noprofile --norc -eo pipefail`), a
// GITHUB_OUTPUT file per step, and the action's outputs read from the steps' outputs. Against the
// simulator, from a checkout of the action as a tag gives it: action.yml, package.json and the
// release's build (action/dms.js, made here by the release script's build), and no node_modules.
import { execFile } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { ACTION_BUILD, ACTION_STAMP, buildActionDms } from "../../tools/release/action-build.ts";
import { type RunningSimulator, startSimulator } from "../../src/simulator/node/index.js";
import { ROOT } from "../support/document.js";
import { API_KEY, cleanEnv, SimulatorControl } from "../cli/support.js";

interface ActionFile {
  inputs: Record<string, { required?: boolean; default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: { id: string; shell: string; env?: Record<string, string>; run: string }[] };
}

const action = parse(await readFile(join(ROOT, "action.yml"), "utf8")) as ActionFile;

let simulator: RunningSimulator;
let sim: SimulatorControl;
let ids: string[];
let work: string;
/** The action's checkout at a release: action.yml, package.json and the release build, nothing else. */
let released: string;

/** A checkout of the action holding action.yml and package.json (and what `extra` writes). */
async function checkoutWith(name: string, extra: (dir: string) => Promise<unknown> = async () => {}): Promise<string> {
  const dir = join(work, name);
  await mkdir(join(dir, "action"), { recursive: true });
  await Promise.all([copyFile(join(ROOT, "action.yml"), join(dir, "action.yml")), copyFile(join(ROOT, "package.json"), join(dir, "package.json"))]);
  await extra(dir);
  return dir;
}

beforeAll(async () => {
  simulator = await startSimulator({ port: 0, stepSeconds: 0.05, quiet: true });
  sim = new SimulatorControl(simulator.url);
  ids = await sim.deploymentIds();
  work = await mkdtemp(join(tmpdir(), "dms-action-"));
  released = await checkoutWith("released", (dir) => buildActionDms(dir));
});
afterAll(async () => {
  await simulator?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/** `name=value` lines and `name<<DELIMITER` blocks, as the runner reads GITHUB_OUTPUT. */
function readOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2]!, i + 1);
      outputs[heredoc[1]!] = lines.slice(i + 1, end).join("\n");
      i = end;
    } else if (line.includes("=")) {
      outputs[line.slice(0, line.indexOf("="))] = line.slice(line.indexOf("=") + 1);
    }
  }
  return outputs;
}

interface ActionRun {
  outputs: Record<string, string>;
  /** The exit code of the step that ended the run (0 when every step succeeded). */
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the action's steps like the runner: `with` are the inputs, `stepEnv` the caller step's env. */
async function runAction(
  withInputs: Record<string, string>,
  options: { stepEnv?: Record<string, string>; actionPath?: string; path?: string } = {},
): Promise<ActionRun> {
  const inputs: Record<string, string> = {};
  for (const [name, input] of Object.entries(action.inputs)) {
    const value = withInputs[name] ?? input.default ?? "";
    if (input.required && value === "") throw new Error(`the runner refuses a missing required input: ${name}`);
    inputs[name] = value;
  }
  const steps: Record<string, Record<string, string>> = {};
  const expand = (text: string) =>
    text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_all, expression: string) => {
      const input = /^inputs\.([\w-]+)$/.exec(expression);
      if (input) return inputs[input[1]!] ?? "";
      if (expression === "github.action_path") return options.actionPath ?? released;
      const output = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expression);
      if (output) return steps[output[1]!]?.[output[2]!] ?? "";
      throw new Error(`an expression this test does not evaluate: ${expression}`);
    });
  const run: ActionRun = { outputs: {}, code: 0, stdout: "", stderr: "" };
  expect(action.runs.using).toBe("composite");
  for (const step of action.runs.steps) {
    expect(step.shell).toBe("bash");
    const dir = join(work, randomUUID());
    await mkdir(dir);
    const output = join(dir, "output");
    const script = join(dir, "step.sh");
    await Promise.all([writeFile(output, ""), writeFile(script, expand(step.run))]);
    const env = cleanEnv({
      ...options.stepEnv,
      ...Object.fromEntries(Object.entries(step.env ?? {}).map(([name, value]) => [name, expand(value)])),
      GITHUB_ACTIONS: "true",
      GITHUB_OUTPUT: output,
      RUNNER_TEMP: dir,
      // The runner's node: the one that runs this test.
      PATH: `${options.path ? `${options.path}:` : ""}${join(process.execPath, "..")}:${process.env.PATH}`,
    });
    const result = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile("bash", ["--noprofile", "--norc", "-eo", "pipefail", script], { env }, (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
      ),
    );
    run.stdout += result.stdout;
    run.stderr += result.stderr;
    steps[step.id] = readOutputs(await readFile(output, "utf8"));
    if (result.code !== 0) {
      run.code = result.code;
      break;
    }
  }
  run.outputs = Object.fromEntries(Object.entries(action.outputs).map(([name, output]) => [name, expand(output.value)]));
  return run;
}

const connection = () => ({ "base-url": simulator.url, "api-key": API_KEY });

describe.concurrent("action.yml", () => {
  it("declares the inputs and outputs the docs use", () => {
    expect(Object.keys(action.inputs)).toEqual(
      expect.arrayContaining(["deployment-id", "ref", "base-url", "api-key", "tenant-id", "timeout", "wait", "secrets-from-env", "rollback-to"]),
    );
    expect(Object.keys(action.outputs)).toEqual(["deployment-id", "revision-id", "status", "exit-code"]);
  });

  it("deploys: outputs the revision the patch created and DEPLOYED, sends the secrets, never prints them", async () => {
    const id = ids[20]!;
    const secret = `action-secret-${randomUUID()}`;
    const run = await runAction(
      { ...connection(), "deployment-id": id, ref: "release/3.0", "secrets-from-env": "OPENAI_API_KEY,\nOTHER_TOKEN", interval: "20ms" },
      { stepEnv: { OPENAI_API_KEY: secret, OTHER_TOKEN: "other-token-value" } },
    );
    // On the runner, dms tells it to hide each secret (::add-mask::); nothing else goes to stderr.
    const masks = run.stderr.split("\n").filter((line) => line.startsWith("::add-mask::"));
    expect(masks).toEqual(expect.arrayContaining([`::add-mask::${secret}`, "::add-mask::other-token-value"]));
    const stderr = run.stderr
      .split("\n")
      .filter((line) => !line.startsWith("::add-mask::"))
      .join("");
    expect(stderr).toBe("");
    expect(run.code).toBe(0);
    const deployment = await sim.get(`/v2/deployments/${id}`);
    expect(deployment.source_revision_config.repo_ref).toBe("release/3.0");
    expect(deployment.secrets.map((s: { name: string }) => s.name).sort()).toEqual(["OPENAI_API_KEY", "OTHER_TOKEN"]);
    expect(run.outputs).toEqual({ "deployment-id": id, "revision-id": deployment.latest_revision_id, status: "DEPLOYED", "exit-code": "0" });
    expect(run.stdout + stderr).not.toContain(secret);
  });

  it("a failed revision fails the step with exit 1, and the outputs still say which revision and why", async () => {
    const id = ids[21]!;
    await sim.failNext(id, "BUILD_FAILED");
    // An internal_docker deployment: image-uri is the input its source takes (src/shared/source-rules.ts).
    const run = await runAction({ ...connection(), "deployment-id": id, "image-uri": "registry.example.com/app:3", interval: "20ms" });
    expect(run.code).toBe(1);
    expect(run.outputs).toMatchObject({ "deployment-id": id, status: "BUILD_FAILED", "exit-code": "1" });
    expect(run.outputs["revision-id"]).toBe((await sim.get(`/v2/deployments/${id}`)).latest_revision_id);
    expect(run.stderr).toMatch(/^::error title=dms deploy::/m);
  });

  it('wait: "false" creates the revision and ends at once', async () => {
    const id = ids[22]!;
    // An internal_source deployment: source-tarball-path is the input its source takes.
    const run = await runAction({ ...connection(), "deployment-id": id, "source-tarball-path": "uploads/app-2.tar.gz", wait: "false" });
    expect(run.code).toBe(0);
    expect(run.outputs["revision-id"]).toMatch(/^[0-9a-f-]{36}$/);
    // The created revision's status, read once (not waited for).
    expect(run.outputs.status).toMatch(/^[A-Z_]+$/);
  });

  it("an input is data, never code: a ref with $(...) and quotes is sent as it is", async () => {
    // An scm_host deployment (the seed cycles the sources): a ref is what its source takes.
    const id = ids[12]!;
    const marker = join(work, "pwned");
    const ref = `x"; touch ${marker}; echo "$(touch ${marker})`;
    const run = await runAction({ ...connection(), "deployment-id": id, ref, wait: "false" });
    expect(run.code).toBe(0);
    expect((await sim.get(`/v2/deployments/${id}`)).source_revision_config.repo_ref).toBe(ref);
    await expect(readFile(marker)).rejects.toThrow(/ENOENT/);
  });

  it("bad inputs are usage errors (exit 2) named by dms: an id that is not a UUID, a bad wait", async () => {
    const run = await runAction({ ...connection(), "deployment-id": "my-deployment", ref: "main" });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('<deployment-id> "my-deployment" is not a UUID');
    expect(run.outputs["exit-code"]).toBe("2");
    const badWait = await runAction({ ...connection(), "deployment-id": ids[0]!, ref: "main", wait: "yes" });
    expect(badWait.code).toBe(2);
  });

  it("rollback-to: active after a failed deploy deploys again what runs now; previous goes one DEPLOYED revision further back", async () => {
    // A seeded deployment that has an active revision (the tests above use ids 0 and 20 to 24).
    const candidates = await Promise.all(ids.slice(25).map((id) => sim.get(`/v2/deployments/${id}`)));
    const id: string = candidates.find((d) => d.active_revision_id !== null)!.id;
    await sim.failNext(id, "BUILD_FAILED");
    const source: string = candidates.find((d) => d.id === id)!.source;
    const input: Record<string, string> =
      source === "scm_host"
        ? { ref: "broken" }
        : source === "internal_source"
          ? { "source-tarball-path": "uploads/broken.tar.gz" }
          : { "image-uri": "r.example.com/broken:1" };
    const failed = await runAction({ ...connection(), "deployment-id": id, ...input, interval: "20ms" });
    expect(failed.outputs["exit-code"]).toBe("1");
    const running = (await sim.get(`/v2/deployments/${id}`)).active_revision_id;
    const run = await runAction({ ...connection(), "deployment-id": id, "rollback-to": "active", interval: "20ms" });
    expect(run.code, run.stderr).toBe(0);
    const after = await sim.get(`/v2/deployments/${id}`);
    expect(run.outputs).toEqual({ "deployment-id": id, "revision-id": after.latest_revision_id, status: "DEPLOYED", "exit-code": "0" });
    expect(after.active_revision_id).toBe(after.latest_revision_id);
    const ran = (await sim.get(`/v2/deployments/${id}/revisions/${running}`)).source_revision_config;
    expect(after.source_revision_config.repo_commit_sha ?? null).toBe(ran.repo_commit_sha ?? null);
    // The copy just made is active, and the revision that ran before it is the newest DEPLOYED one older than it.
    const previous = await runAction({ ...connection(), "deployment-id": id, "rollback-to": "previous", interval: "20ms" });
    expect(previous.code, previous.stderr).toBe(0);
    expect((await sim.get(`/v2/deployments/${id}`)).source_revision_config).toEqual(after.source_revision_config);
  });

  it("rollback-to with a revision input is a usage error (exit 2), and nothing is sent", async () => {
    const id = ids[26]!;
    const before = await sim.get(`/v2/deployments/${id}`);
    const run = await runAction({ ...connection(), "deployment-id": id, "rollback-to": "active", ref: "main" });
    expect(run.code).toBe(2);
    expect(run.outputs["exit-code"]).toBe("2");
    expect(run.stderr).toMatch(/^::error title=dms rollback::rollback-to takes no ref/m);
    expect((await sim.get(`/v2/deployments/${id}`)).latest_revision_id).toBe(before.latest_revision_id);
  });

  it("an input that looks like a flag (--help, -h, --json) is a value dms refuses (exit 2), never a flag that ends the step with 0", async () => {
    const id = ids[27]!;
    const before = await sim.get(`/v2/deployments/${id}`);
    const runs = await Promise.all([
      runAction({ ...connection(), "deployment-id": id, "rollback-to": "--help" }),
      runAction({ ...connection(), "deployment-id": id, "rollback-to": "-h" }),
      runAction({ ...connection(), "deployment-id": "--help", "rollback-to": "previous" }),
      runAction({ ...connection(), "deployment-id": "--help", ref: "main" }),
      runAction({ ...connection(), "deployment-id": id, "rollback-to": "previous", timeout: "--help" }),
    ]);
    for (const run of runs) {
      expect(run.code, run.stdout + run.stderr).toBe(2);
      expect(run.outputs["exit-code"]).toBe("2");
      expect(run.stdout).not.toContain("Usage:");
    }
    expect(runs[0]!.stderr).toContain('--to "--help" is neither');
    // previous, like active, in any case: dms is run without --to (0, or 7 when there is nothing older).
    const upper = await runAction({ ...connection(), "deployment-id": ids[28]!, "rollback-to": "PREVIOUS", interval: "20ms" });
    expect(["0", "7"], upper.stderr).toContain(upper.outputs["exit-code"]);
    expect(runs[2]!.stderr).toContain('<deployment-id> "--help" is not a UUID');
    expect((await sim.get(`/v2/deployments/${id}`)).latest_revision_id).toBe(before.latest_revision_id);
  });

  it("runs from the release build alone: no node_modules anywhere above the checkout", () => {
    for (let dir = released; ; dir = dirname(dir)) {
      expect(existsSync(join(dir, "node_modules")), dir).toBe(false);
      if (dirname(dir) === dir) break;
    }
  });

  it("the release build says its own version: dms --version has no package.json beside it to read", async () => {
    const { version } = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8"));
    const { execFileSync } = await import("node:child_process");
    expect(execFileSync(process.execPath, [join(released, ACTION_BUILD), "--version"], { cwd: released, encoding: "utf8" }).trim()).toBe(version);
  });

  it("without the release build, or with the build of another version or other bytes, fails with one line before any of the package runs, and calls no npm", async () => {
    const { version } = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8"));
    // A build that, run, leaves a mark: the checks must refuse it before it runs.
    const ran = join(work, "build-ran");
    const marking = `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(ran)}, "ran");\n`;
    const stampOf = (text: string, stampVersion: string) => JSON.stringify({ version: stampVersion, sha256: createHash("sha256").update(text).digest("hex") });
    const placed = (text: string, stamp: string) => (dir: string) =>
      Promise.all([writeFile(join(dir, ACTION_BUILD), text), writeFile(join(dir, ACTION_STAMP), stamp)]);
    const checkouts = {
      "no build": await checkoutWith("no-build"),
      "another version": await checkoutWith("other-version", placed(marking, stampOf(marking, "0.9.0"))),
      "other bytes": await checkoutWith("other-bytes", placed(marking, stampOf("another file", version))),
      "a stamp and no build": await checkoutWith("stamp-only", (dir) => writeFile(join(dir, ACTION_STAMP), stampOf(marking, version))),
    };
    // An npm first on PATH that records that it was called.
    const bin = join(work, "bin");
    const npmCalls = join(work, "npm-calls");
    await mkdir(bin);
    await writeFile(join(bin, "npm"), `#!/bin/sh\necho "$@" >> "${npmCalls}"\nexit 0\n`, { mode: 0o755 });
    await writeFile(join(bin, "npx"), `#!/bin/sh\necho "npx $@" >> "${npmCalls}"\nexit 0\n`, { mode: 0o755 });
    const id = ids[24]!;
    const before = await sim.get(`/v2/deployments/${id}`);
    const errors: Record<string, string> = {};
    for (const [name, checkout] of Object.entries(checkouts)) {
      const run = await runAction({ ...connection(), "deployment-id": id, ref: "main", wait: "false" }, { actionPath: checkout, path: bin });
      errors[name] = run.stderr;
      expect(run.code, name).toBe(1);
      const lines = run.stderr.split("\n").filter((line) => line !== "");
      expect(lines, name).toHaveLength(1);
      expect(lines[0], name).toMatch(/^::error title=dms deploy::/);
      expect(run.outputs["exit-code"], name).toBe("");
    }
    expect(errors["no build"]).toContain(`checkout (version ${version}) has no build of dms`);
    expect(errors["another version"]).toContain(`the build of version 0.9.0, not of this action's version ${version}`);
    expect(errors["other bytes"]).toContain("is not the file built for version");
    expect(existsSync(ran)).toBe(false);
    expect(existsSync(npmCalls)).toBe(false);
    expect((await sim.get(`/v2/deployments/${id}`)).latest_revision_id).toBe(before.latest_revision_id);
  });
});
