// The first probe of "a simulator you can trust": the CLI with --state on a 64 KiB tmpfs, PATCHed
// until the disk is full, and on a tmpfs remounted read-only under it. The PATCH that cannot be
// saved answers 507 (full) or 500 (read-only) problem+json and changes nothing: GET still shows the
// last acknowledged write, and so does a restart on the same file.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, expect, it } from "vitest";
import { ROOT } from "../support/document.js";

const work = mkdtempSync(join(tmpdir(), "dms-disk-full-"));
const mountPoint = join(work, "tiny");
const readOnlyPoint = join(work, "read-only");
const children: ChildProcess[] = [];
let mounted = false;
let why = "";

beforeAll(() => {
  try {
    mkdirSync(mountPoint);
    mkdirSync(readOnlyPoint);
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", mountPoint], { stdio: "pipe" });
    mounted = true;
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", readOnlyPoint], { stdio: "pipe" });
  } catch (error) {
    why = (error as Error).message.split("\n")[0]!;
  }
});

afterAll(async () => {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGKILL");
      await new Promise((resolve) => child.once("exit", resolve));
    }
  }
  for (const point of [mountPoint, readOnlyPoint]) {
    try {
      execFileSync("umount", [point], { stdio: "pipe" });
    } catch {
      // Not mounted (mount was refused).
    }
  }
  rmSync(work, { recursive: true, force: true });
});

const HEADERS = { "x-api-key": "disk-full-test", "content-type": "application/json" };

function startCli(file: string): { child: ChildProcess; url: Promise<string>; stderr: () => string } {
  const args = ["dist/simulator/node/cli.js", "--port", "0", "--state", file, "--quiet", "--seed-deployments", "3"];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let stderr = "";
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  const url = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", (line) => resolve(line.trim()));
    child.once("exit", (code) => reject(new Error(`the simulator exited ${code}: ${stderr}`)));
  });
  return { child, url, stderr: () => stderr };
}

async function call(url: string, method: string, path: string, body?: unknown) {
  const response = await fetch(url + path, { method, headers: HEADERS, ...(body ? { body: JSON.stringify(body) } : {}) });
  return { status: response.status, type: response.headers.get("content-type") ?? "", body: (await response.json()) as any };
}

it("PATCH on a full disk: 507 problem+json, memory and disk keep the last acknowledged write", async (context) => {
  if (!mounted) {
    console.warn(`Skipping the full-disk test: cannot mount a tmpfs here (${why}).`);
    return context.skip();
  }
  const file = join(mountPoint, "state.json");
  const first = startCli(file);
  const url = await first.url;
  const id = (await call(url, "GET", "/v2/deployments?limit=1")).body.resources[0].id as string;

  // Each PATCH makes a revision, and each journal record holds the deployment with all of its
  // revisions, so records grow until one no longer fits.
  let lastAcknowledged: { ref: string; revision: string } | undefined;
  let refused: Awaited<ReturnType<typeof call>> | undefined;
  for (let i = 0; i < 500 && !refused; i++) {
    const ref = `fill-${i}-${"r".repeat(200)}`;
    const answer = await call(url, "PATCH", `/v2/deployments/${id}`, { source_revision_config: { repo_ref: ref } });
    if (answer.status === 200) lastAcknowledged = { ref, revision: answer.body.latest_revision_id };
    else refused = answer;
  }
  expect(lastAcknowledged).toBeDefined();
  expect(refused?.status).toBe(507);
  expect(refused?.type).toMatch(/^application\/problem\+json/);
  expect(refused?.body.status).toBe(507);

  const check = async (base: string) => {
    const deployment = (await call(base, "GET", `/v2/deployments/${id}`)).body;
    expect(deployment.latest_revision_id).toBe(lastAcknowledged!.revision);
    expect(deployment.source_revision_config.repo_ref).toBe(lastAcknowledged!.ref);
  };
  await check(url); // the refused write never reached memory
  first.child.kill("SIGKILL");
  await new Promise((resolve) => first.child.once("exit", resolve));

  const second = startCli(file);
  await check(await second.url); // nor the disk; and the file loads
  expect(readdirSync(mountPoint).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  second.child.kill("SIGTERM");
  await new Promise((resolve) => second.child.once("exit", resolve));
});

it("PATCH on a file system remounted read-only: 500 problem+json, nothing changes; writable again, writes go on", async (context) => {
  if (!mounted) {
    console.warn(`Skipping the read-only test: cannot mount a tmpfs here (${why}).`);
    return context.skip();
  }
  const file = join(readOnlyPoint, "state.json");
  const stop = async (run: ReturnType<typeof startCli>, signal: NodeJS.Signals) => {
    run.child.kill(signal);
    await new Promise((resolve) => run.child.once("exit", resolve));
  };
  const at = async (url: string, id: string) => (await call(url, "GET", `/v2/deployments/${id}`)).body.source_config.custom_url;
  const patch = (url: string, id: string, customUrl: string) => call(url, "PATCH", `/v2/deployments/${id}`, { source_config: { custom_url: customUrl } });

  // Two runs leave a snapshot and an empty journal, so the third holds no file open for writing
  // and the file system can be remounted read-only under it.
  const first = startCli(file);
  let url = await first.url;
  const id = (await call(url, "GET", "/v2/deployments?limit=1")).body.resources[0].id as string;
  expect((await patch(url, id, "https://before.example.com")).status).toBe(200);
  await stop(first, "SIGTERM");
  const second = startCli(file);
  await second.url; // started: the journal is folded into the snapshot
  await stop(second, "SIGTERM");
  const third = startCli(file);
  url = await third.url;

  execFileSync("mount", ["-o", "remount,ro", readOnlyPoint]);
  let refused;
  try {
    refused = await patch(url, id, "https://refused.example.com");
  } finally {
    execFileSync("mount", ["-o", "remount,rw", readOnlyPoint]);
  }
  expect(refused.status).toBe(500);
  expect(refused.type).toMatch(/^application\/problem\+json/);
  expect(await at(url, id)).toBe("https://before.example.com");

  expect((await patch(url, id, "https://after.example.com")).status).toBe(200);
  await stop(third, "SIGKILL");
  const fourth = startCli(file);
  expect(await at(await fourth.url, id)).toBe("https://after.example.com");
  await stop(fourth, "SIGTERM");
});
