// kill -9 in the middle of a burst of writes: the compiled CLI with --state, 200 concurrent PATCHes
// (20 at a time, each setting a distinct custom_url on its own deployment), SIGKILL once 60 of them
// were answered, then a restart on the same files. Every PATCH answered 200 is there, no PATCH that
// was never sent is, and the ones in flight at the kill are either there or not, nothing else.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, expect, it } from "vitest";
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
  const args = ["dist/simulator/cli.js", "--port", "0", "--state", file, "--quiet", "--seed-deployments", String(PATCHES)];
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
