// kill -9 in the middle of a burst of writes: the compiled CLI with --state, 200 concurrent PATCHes
// (20 at a time, each setting a distinct custom_url on its own deployment), SIGKILL once 60 of them
// were answered, then a restart on the same files. Every PATCH answered 200 is there, no PATCH that
// was never sent is, and the ones in flight at the kill are either there or not, nothing else.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, expect, it } from "vitest";
import { createStateFilePersistence } from "../../src/simulator/node/state-file.js";
import { ROOT } from "../support/document.js";

const work = mkdtempSync(join(tmpdir(), "dms-kill-"));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  rmSync(work, { recursive: true, force: true });
});

const HEADERS = { "x-api-key": "kill-test", "content-type": "application/json" };
const PATCHES = 200;
const CONCURRENCY = 20;
const KILL_AFTER = 60;

function startCli(file: string): { child: ChildProcess; url: Promise<string>; exited: Promise<unknown> } {
  const args = ["dist/simulator/node/cli.js", "--port", "0", "--state", file, "--quiet", "--seed-deployments", String(PATCHES)];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let stderr = "";
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const url = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", (line) => resolve(line.trim()));
    exited.then(() => reject(new Error(`the simulator exited before it printed its URL: ${stderr}`)));
  });
  return { child, url, exited };
}

async function deploymentIds(url: string): Promise<string[]> {
  const ids: string[] = [];
  for (let offset = 0; ids.length < PATCHES; ) {
    const page = (await (await fetch(`${url}/v2/deployments?limit=100&offset=${offset}`, { headers: HEADERS })).json()) as any;
    ids.push(...page.resources.map((d: { id: string }) => d.id));
    if (page.resources.length < 100) break;
    offset = page.offset;
  }
  return ids;
}

async function customUrl(url: string, id: string): Promise<string | null | undefined> {
  const response = await fetch(`${url}/v2/deployments/${id}`, { headers: HEADERS });
  expect(response.status).toBe(200);
  return ((await response.json()) as any).source_config?.custom_url;
}

it("SIGKILL during a burst of concurrent PATCHes keeps every acknowledged write and nothing unsent", async () => {
  const file = join(work, "state.json");
  const first = startCli(file);
  const url = await first.url;
  const ids = await deploymentIds(url);
  expect(ids).toHaveLength(PATCHES);
  const before = new Map(await Promise.all(ids.map(async (id) => [id, await customUrl(url, id)] as const)));

  const sentUrl = (i: number) => `https://kill-${i}.example.com`;
  const outcome: ("acknowledged" | "in flight" | "unsent" | "refused")[] = Array(PATCHES).fill("unsent");
  let next = 0;
  let acknowledged = 0;
  let killed = false;
  async function worker(): Promise<void> {
    while (!killed && next < PATCHES) {
      const i = next++;
      outcome[i] = "in flight";
      try {
        const response = await fetch(`${url}/v2/deployments/${ids[i]}`, {
          method: "PATCH",
          headers: HEADERS,
          body: JSON.stringify({ source_config: { custom_url: sentUrl(i) } }),
        });
        await response.arrayBuffer();
        if (response.status === 200) {
          outcome[i] = "acknowledged";
          if (++acknowledged === KILL_AFTER) {
            killed = true;
            first.child.kill("SIGKILL");
          }
        } else if (!killed) {
          outcome[i] = "refused";
        }
      } catch {
        // The connection died with the process: this one was in flight.
      }
    }
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  await first.exited;
  expect(first.child.signalCode).toBe("SIGKILL");
  expect(outcome.filter((o) => o === "refused")).toEqual([]);
  expect(outcome.filter((o) => o === "acknowledged").length).toBeGreaterThanOrEqual(KILL_AFTER);
  expect(outcome.filter((o) => o === "unsent").length).toBeGreaterThan(0);

  const second = startCli(file);
  const again = await second.url;
  const lost: number[] = [];
  const phantom: number[] = [];
  for (let i = 0; i < PATCHES; i++) {
    const now = await customUrl(again, ids[i]!);
    if (outcome[i] === "acknowledged" && now !== sentUrl(i)) lost.push(i);
    if (outcome[i] === "unsent" && now !== before.get(ids[i]!)) phantom.push(i);
    if (outcome[i] === "in flight") expect([sentUrl(i), before.get(ids[i]!)]).toContain(now);
  }
  expect({ lost, phantom }).toEqual({ lost: [], phantom: [] });
  second.child.kill("SIGTERM");
  await second.exited;
  expect(second.child.exitCode).toBe(0);
});

// The same with the persistence alone in a child process, folding its journal every few writes
// into a 2 MB snapshot, so the kill lands in the middle of a fold (temp file written, renamed, journal
// cut) as often as not. Eight writers each bump a counter of their own; a counter's last
// acknowledged value must be there after the restart, and at most the one value in flight beyond it.
const CHILD = `
import { createStateFilePersistence } from "./dist/simulator/node/state-file.js";
import { applyChange } from "./dist/simulator/core/changes.js";
const file = process.argv[1];
const persistence = createStateFilePersistence(file, { compactBytes: 4096, warn: (line) => console.error(line) });
const record = (id, n) => ({ deployment: { id, name: String(n), notes: "x".repeat(200) }, revisions: [] });
let state = await persistence.load();
persistence.attach(() => state);
if (!state) {
  const seed = { format: "dms-simulator-state", version: 1, clock_offset_ms: 0, last_created_ms: 0, listeners: [], providers: [], connections: {}, repositories: { scm: {}, forge: {} },
    deployments: Array.from({ length: 2000 }, (_, i) => ({ deployment: { id: "filler-" + i, notes: "y".repeat(1000) }, revisions: [] })) };
  await persistence.append([{ op: "replace_state", state: seed }]);
  state = seed;
}
console.log("ready");
await Promise.all(Array.from({ length: 8 }, async (_, w) => {
  const saved = state.deployments.find((d) => d.deployment.id === "writer-" + w);
  for (let n = Number(saved?.deployment.name ?? 0) + 1; ; n++) {
    const change = { op: "put_deployment", record: record("writer-" + w, n) };
    console.log("sent " + w + " " + n);
    await persistence.append([change]);
    state = applyChange(state, change);
    console.log("ack " + w + " " + n);
  }
}));
`;

it("SIGKILL while the journal is being folded into the snapshot, five times over, loses no acknowledged write and leaves no temp file", async () => {
  // A directory of its own, so the temp-file check sees only this state file.
  const dir = join(work, "folding");
  mkdirSync(dir);
  const file = join(dir, "state.json");
  for (let cycle = 0; cycle < 5; cycle++) {
    const child = spawn(process.execPath, ["--input-type=module", "-e", CHILD, file], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    let stderr = "";
    child.stderr!.on("data", (chunk) => (stderr += chunk));
    const sent = new Map<number, number>();
    const acknowledged = new Map<number, number>();
    let acks = 0;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const [kind, w, n] = line.split(" ");
      if (kind === "sent") sent.set(Number(w), Number(n));
      if (kind === "ack") {
        acknowledged.set(Number(w), Number(n));
        // Acks come between folds; a random delay puts the kill anywhere in the fold that follows.
        if (++acks === 150) setTimeout(() => child.kill("SIGKILL"), Math.random() * 60);
      }
    });
    await exited;
    expect(child.signalCode, stderr).toBe("SIGKILL");
    expect(stderr).toBe("");

    const warnings: string[] = [];
    const persistence = createStateFilePersistence(file, { warn: (line) => warnings.push(line) });
    const state = await persistence.load();
    await persistence.close();
    // A kill cannot tear a write the kernel already has; a torn record would only be warned about.
    for (const warning of warnings) expect(warning).toMatch(/cut short.*ignored/);
    expect(state!.deployments.filter((d) => d.deployment.id.startsWith("filler-"))).toHaveLength(2000);
    for (let w = 0; w < 8; w++) {
      const kept = Number(state!.deployments.find((d) => d.deployment.id === `writer-${w}`)?.deployment.name ?? 0);
      expect(kept, `cycle ${cycle}, writer ${w}`).toBeGreaterThanOrEqual(acknowledged.get(w) ?? 0);
      expect(kept, `cycle ${cycle}, writer ${w}`).toBeLessThanOrEqual(sent.get(w) ?? 0);
    }
    expect(readdirSync(dir).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  }
});
