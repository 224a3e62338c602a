// A newcomer's first hour, on a fresh `git clone` of HEAD: `npm ci`, then every npm script the way
// the README and docs/ say to run it (test/fresh-clone/commands.ts lists each and what proves it).
// A working copy keeps dist/, installed tools and state that a fresh clone never has; this test has
// none of them. It runs in .ci/run (npm run test:fresh-clone), beside npm test, because an install
// and every command take minutes.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCRIPTS } from "./commands.js";
import { runDocumentedBlocks } from "./documented-commands.js";
import { freePort } from "../support/free-port.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const SEED_DEPLOYMENT = "3f2b8c1e-5a47-4d6b-9e21-7c0a4f8e1b52";
const work = mkdtempSync(join(tmpdir(), "dms-fresh-clone-"));
const clone = join(work, "repo");
const servers: ChildProcess[] = [];
const proven = new Set<string>();

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command in the clone to its end (bounded), with the environment a newcomer has plus `env`. */
function run(command: string, args: string[], env: Record<string, string> = {}, timeoutMs = 600_000): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: clone, env: { ...newcomerEnv(), ...env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout = (stdout + chunk).slice(-200_000)));
    child.stderr.on("data", (chunk) => (stderr = (stderr + chunk).slice(-200_000)));
    const timer = setTimeout(() => killGroup(child), timeoutMs);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The test runner's environment, less what vitest and npm put there for this repository's own run. */
function newcomerEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(npm_|VITEST|NODE_OPTIONS$|INIT_CWD$|TEST$|FUZZ_|BENCH_)/i.test(name)) continue;
    env[name] = value;
  }
  // npm put this repository's node_modules/.bin (and its Node 24) first on PATH; a newcomer's
  // shell has the machine's PATH, and npm puts the clone's own there for each script.
  env.PATH = (process.env.PATH ?? "")
    .split(":")
    .filter((dir) => !dir.startsWith(ROOT) && !dir.includes("node_modules"))
    .join(":");
  return env;
}

function killGroup(child: ChildProcess): void {
  try {
    if (child.pid) process.kill(-child.pid, "SIGKILL");
  } catch {
    // It had ended.
  }
}

interface Answer {
  contentType: string;
  text: string;
  /** From the start of the script to its first 200 answer: what a newcomer waits for. */
  firstAnswerMs: number;
}

/** The docs promise each launcher's first answer on a fresh clone within this long (README, docs/mock.md). */
const FIRST_ANSWER_BOUND_MS = 10_000;

/** Starts a long-running script and resolves with `url`'s first 200 answer, or rejects with the script's output. */
async function serve(args: string[], env: Record<string, string>, url: string, headers: Record<string, string> = {}): Promise<Answer> {
  const started = performance.now();
  const child = spawn("npm", args, { cwd: clone, env: { ...newcomerEnv(), ...env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  servers.push(child);
  let output = "";
  child.stdout?.on("data", (chunk) => (output = (output + chunk).slice(-20_000)));
  child.stderr?.on("data", (chunk) => (output = (output + chunk).slice(-20_000)));
  let exited = false;
  child.on("exit", () => (exited = true));
  const deadline = Date.now() + 240_000;
  while (Date.now() < deadline && !exited) {
    try {
      const response = await fetch(url, { headers, signal: AbortSignal.timeout(5_000) });
      const text = await response.text();
      if (response.status === 200) return { contentType: response.headers.get("content-type") ?? "", text, firstAnswerMs: performance.now() - started };
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`npm ${args.join(" ")} did not answer ${url} with 200 (${exited ? "it exited" : "timed out"}):\n${output}`);
}

function expectExit(ran: Ran, what: string, code = 0): void {
  if (ran.code !== code) throw new Error(`${what} exited ${ran.code}, expected ${code}:\n${ran.stdout.slice(-4000)}\n${ran.stderr.slice(-4000)}`);
}

beforeAll(async () => {
  const cloned = await new Promise<number | null>((resolve) =>
    spawn("git", ["clone", "--quiet", "--no-local", ROOT, clone], { stdio: "inherit" }).on("close", resolve),
  );
  expect(cloned).toBe(0);
  const installed = await run("npm", ["ci", "--no-audit", "--no-fund", "--prefer-offline"]);
  expectExit(installed, "npm ci");
  // No lifecycle script of the package itself ran: a fresh clone has no dist/ until a command needs it.
  expect(existsSync(join(clone, "dist"))).toBe(false);
}, 900_000);

afterAll(() => {
  for (const child of servers) killGroup(child);
  rmSync(work, { recursive: true, force: true });
});

describe("a fresh clone", { timeout: 900_000 }, () => {
  it("serves npm start, npm run simulate and npm run docs on their ports, and npm run dms deploys to DEPLOYED", async () => {
    const [mockPort, simulatorPort, docsPort] = await Promise.all([freePort(), freePort(), freePort()]);
    // The three start at once, as a newcomer's three terminals would: each compiles what it needs.
    const [mock, simulator, docs] = await Promise.all([
      serve(["start"], { PORT: String(mockPort) }, `http://127.0.0.1:${mockPort}/v2/deployments?limit=2`, { "x-api-key": "dev" }),
      serve(["run", "simulate", "--", "--step-seconds", "0.2"], { PORT: String(simulatorPort) }, `http://127.0.0.1:${simulatorPort}/v2/deployments?limit=2`, {
        "x-api-key": "dev",
      }),
      serve(["run", "docs"], { PORT: String(docsPort) }, `http://127.0.0.1:${docsPort}/`),
    ]);
    expect(JSON.parse(mock.text).resources).toHaveLength(2);
    expect(JSON.parse(simulator.text).resources).toHaveLength(2);
    expect(docs.contentType).toMatch(/^text\/html/);
    expect(docs.text).toContain("Deployment Management");
    // The first start compiles src/ (JavaScript only, no type-check), then answers: the figure the
    // README and docs/mock.md state. All three start at once, as a newcomer's three terminals would.
    const firstAnswers = { "npm start": mock.firstAnswerMs, "npm run simulate": simulator.firstAnswerMs, "npm run docs": docs.firstAnswerMs };
    console.log(`first answers on a fresh clone (ms): ${JSON.stringify(Object.fromEntries(Object.entries(firstAnswers).map(([k, v]) => [k, Math.round(v)])))}`);
    for (const [launcher, ms] of Object.entries(firstAnswers)) expect(ms, `${launcher}'s first answer`).toBeLessThanOrEqual(FIRST_ANSWER_BOUND_MS);
    proven.add("start").add("simulate").add("docs");

    const deployed = await run("npm", ["run", "dms", "--", "deploy", SEED_DEPLOYMENT, "--ref", "main"], {
      DMS_BASE_URL: `http://127.0.0.1:${simulatorPort}`,
      DMS_API_KEY: "dev",
    });
    expectExit(deployed, "npm run dms -- deploy");
    expect(deployed.stdout + deployed.stderr).toContain("DEPLOYED");
    proven.add("dms");

    const contract = await run("npm", ["run", "test:contract"], { CONTRACT_BASE_URL: `http://127.0.0.1:${simulatorPort}`, CONTRACT_API_KEY: "dev" });
    expectExit(contract, "npm run test:contract");
    proven.add("test:contract");
  });

  it("runs the build, lint, type-check, api:diff and release pack, and leaves the committed files as they were", async () => {
    expectExit(await run("npm", ["run", "build"]), "npm run build");
    const status = await run("git", ["status", "--porcelain"]);
    expect(status.stdout).toBe("");
    proven.add("build");
    expectExit(await run("npm", ["run", "lint"]), "npm run lint");
    proven.add("lint");
    expectExit(await run("npm", ["run", "typecheck"]), "npm run typecheck");
    proven.add("typecheck");
    expectExit(await run("npm", ["run", "api:diff"]), "npm run api:diff");
    proven.add("api:diff");

    rmSync(join(clone, "dist"), { recursive: true, force: true });
    expectExit(await run("npm", ["run", "build:ts"]), "npm run build:ts");
    const version = await run(join(clone, "dist", "cli", "main.js"), ["--version"]);
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(join(clone, "package.json"), "utf8")).version);
    proven.add("build:ts");

    const packed = await run("npm", ["run", "pack:release"]);
    expectExit(packed, "npm run pack:release");
    const tarball = /^(deployment-management-api-[\d.]+\.tgz)$/m.exec(packed.stdout)?.[1];
    expect(tarball, packed.stdout).toBeDefined();
    const manifest = await run("tar", ["-xzOf", tarball!, "package/package.json"]);
    const scripts = JSON.parse(manifest.stdout).scripts ?? {};
    for (const lifecycle of ["preinstall", "install", "postinstall", "prepare", "prepack", "postpack", "prepublish", "prepublishOnly"]) {
      expect(scripts[lifecycle], lifecycle).toBeUndefined();
    }
    proven.add("pack:release");
    // A tool run by hand, as CONTRIBUTING says: npx finds the project's own Node 24, which strips types.
    expectExit(await run("npx", ["node", "tools/docs/doc-facts.ts", "--check"]), "npx node tools/docs/doc-facts.ts --check");
  });

  it("runs npm run fuzz and npm run bench in their short modes, and npm run screenshot", async () => {
    expectExit(await run("npm", ["run", "fuzz", "--", "--seconds", "20", "--runs", "30", "--seed", "19"]), "npm run fuzz");
    proven.add("fuzz");
    const bench = await run("npm", ["run", "bench"], { BENCH_QUICK: "1" });
    expectExit(bench, "BENCH_QUICK=1 npm run bench");
    for (const table of ["| goal | measured | met |", "raw fetch", "durable (--state)", "compiled at build time", "with consoles"]) {
      expect(bench.stdout).toContain(table);
    }
    proven.add("bench");
    rmSync(join(clone, "assets", "docs.png"), { force: true });
    expectExit(await run("npm", ["run", "screenshot"]), "npm run screenshot");
    expect(
      readFileSync(join(clone, "assets", "docs.png"))
        .subarray(1, 4)
        .toString(),
    ).toBe("PNG");
    proven.add("screenshot");
  });

  it("runs every documented shell block marked to run, and each does what it is for (documented-commands.ts)", async () => {
    const { failures, proved } = await runDocumentedBlocks(clone, work, newcomerEnv(), freePort);
    console.log(`documented blocks proved:\n${proved.join("\n")}`);
    expect(failures).toEqual([]);
  });

  it("proved every script that commands.ts says it proves", () => {
    const claimed = Object.entries(SCRIPTS)
      .filter(([, proof]) => "proof" in proof)
      .map(([name]) => name);
    expect([...proven].sort()).toEqual(claimed.sort());
  });
});
