// kill -9 in the middle of a burst of writes: the compiled CLI with --state, 200 concurrent PATCHes
// (20 at a time, each setting a distinct custom_url on its own deployment), SIGKILL once 60 of them
// were answered, then a restart on the same file. Every PATCH answered 200 is there, no PATCH that
// was never sent is, and the ones in flight at the kill are either there or not, nothing else.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, expect, it } from "vitest";
import { createStateFilePersistence } from "../../../src/simulator/node/index.js";
import { ROOT } from "../../support/document.js";

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
  const file = join(work, "state.sqlite");
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

// The same with the persistence alone in a child process, so the kill lands in the middle of a
// commit as often as not. Eight writers each bump a counter of their own (the deployment's name),
// each bump also saving a revision and dropping an old one; a counter's last acknowledged value must
// be there after the restart, at most the one value in flight beyond it, and its revisions with it.
const CHILD = `
import { createStateFilePersistence } from "./dist/simulator/node/index.js";
const file = process.argv[1];
const persistence = createStateFilePersistence(file);
const row = (id, n) => ({
  deployment: { id, name: String(n), tenant_id: "kill", status: "READY", source_revision_config: {}, notes: "x".repeat(200) },
  deployment_type: "dev", remote_reconciled: false, tag_value_ids: [], fail_next: null,
});
const revision = (id, n) => ({
  revision: { id: id + ":" + n, created_at: new Date(n).toISOString(), updated_at: new Date(n).toISOString(), status: "DEPLOYED", source: "scm_host", source_revision_config: {} },
  remote_reconciled: false, step_at_ms: n, fail_with: null,
});
let state = await persistence.load();
if (!state) {
  state = { format: "dms-simulator-state", version: 1, clock_offset_ms: 0, last_created_ms: 0, listeners: [], providers: [], connections: {}, repositories: { scm: {}, forge: {} },
    deployments: Array.from({ length: 2000 }, (_, i) => ({ ...row("filler-" + i, 0), revisions: [] })) };
  await persistence.append([{ op: "replace_state", state }]);
}
console.log("ready");
await Promise.all(Array.from({ length: 8 }, async (_, w) => {
  const id = "writer-" + w;
  const saved = state.deployments.find((d) => d.deployment.id === id);
  for (let n = Number(saved?.deployment.name ?? 0) + 1; ; n++) {
    const changes = [{ op: "put_deployment", row: row(id, n) }, { op: "put_revision", deployment_id: id, record: revision(id, n) }];
    if (n > 3) changes.push({ op: "delete_revision", deployment_id: id, revision_id: id + ":" + (n - 3) });
    console.log("sent " + w + " " + n);
    await persistence.append(changes);
    console.log("ack " + w + " " + n);
  }
}));
`;

it("SIGKILL in the middle of grouped commits, five times over, loses no acknowledged write and keeps each write whole", async () => {
  const dir = join(work, "commits");
  mkdirSync(dir);
  const file = join(dir, "state.sqlite");
  for (let cycle = 0; cycle < 5; cycle++) {
    const child = spawn(process.execPath, ["--input-type=module", "-e", CHILD, file], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    let stderr = "";
    child.stderr!.on("data", (chunk) => (stderr += chunk));
    const sent = new Map<number, number>();
    const acknowledged = new Map<number, number>();
    let acks = 0;
    // "close", not "exit": every line the child wrote before the kill is read by then.
    const exited = new Promise((resolve) => child.once("close", resolve));
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const [kind, w, n] = line.split(" ");
      if (kind === "sent") sent.set(Number(w), Number(n));
      if (kind === "ack") {
        acknowledged.set(Number(w), Number(n));
        // A random delay puts the kill anywhere in the commits that follow.
        if (++acks === 150) setTimeout(() => child.kill("SIGKILL"), Math.random() * 30);
      }
    });
    await exited;
    expect(child.signalCode, stderr).toBe("SIGKILL");
    expect(stderr).toBe("");

    const persistence = createStateFilePersistence(file);
    const state = await persistence.load();
    await persistence.close();
    expect(state!.deployments.filter((d) => d.deployment.id.startsWith("filler-"))).toHaveLength(2000);
    for (let w = 0; w < 8; w++) {
      const record = state!.deployments.find((d) => d.deployment.id === `writer-${w}`);
      const kept = Number(record?.deployment.name ?? 0);
      expect(kept, `cycle ${cycle}, writer ${w}`).toBeGreaterThanOrEqual(acknowledged.get(w) ?? 0);
      expect(kept, `cycle ${cycle}, writer ${w}`).toBeLessThanOrEqual(sent.get(w) ?? 0);
      // Each write is whole: the deployment row, its revision and the dropped one went together.
      const revisions = (record?.revisions ?? []).map((r) => r.revision.id);
      expect(revisions, `cycle ${cycle}, writer ${w}`).toEqual([kept - 2, kept - 1, kept].filter((n) => n > 0).map((n) => `writer-${w}:${n}`));
    }
  }
});
