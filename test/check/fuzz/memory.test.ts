// Memory stays bounded: the resident memory (RSS, from /proc) of a server process after many large
// requests, each valid and within the request bounds. The simulator (its compiled command line) and
// the mock (`npm start`) run as child processes, so what is measured is the server alone. The
// requests are generated: large strings near the string bound in the fields of valid patches, then
// many different list queries (each answer a different page of those large deployments).
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import fc from "fast-check";
import { afterAll, expect, it } from "vitest";
import { REQUEST_BOUNDS } from "../../../src/gate/bounds.js";
import { startMockProcess } from "../../mock/support.js";
import { ROOT } from "../../support/document.js";
import { SEED } from "./budget.js";
import { sendHttp, type WireRequest } from "./targets.js";

const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]) / 1024;
}

async function startSimulatorProcess(): Promise<{ url: string; pid: number }> {
  const child = spawn(process.execPath, ["dist/simulator/node/cli.js", "--port", "0", "--quiet"], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let stderr = "";
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", (line) => resolve(line.trim()));
    child.once("exit", () => reject(new Error(`the simulator exited before it printed its URL: ${stderr}`)));
  });
  return { url, pid: child.pid! };
}

const KEY: [string, string] = ["x-api-key", "memory"];
const JSON_TYPE: [string, string] = ["content-type", "application/json"];

type Rng = (below: number) => number;

/** A small seeded generator (mulberry32): the same large strings for the same seed. */
function random(seed: number): Rng {
  let a = seed >>> 0;
  return (below) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * below);
  };
}

/** A valid patch of about `bytes` bytes: large strings in fields the document leaves free. */
function largePatch(rng: Rng, bytes: number): unknown {
  const each = REQUEST_BOUNDS.maxStringLength - 16;
  const count = Math.max(1, Math.floor(bytes / each));
  const text = (i: number) => `${i}-${rng(1e9)}-`.padEnd(each, String.fromCharCode(97 + rng(26)));
  return {
    source_config: {
      custom_url: text(0),
      resource_spec: { labels: Object.fromEntries(Array.from({ length: count - 1 }, (_, i) => [`l${i}`, text(i + 1)])) },
    },
  };
}

async function patch(base: string, path: string, body: unknown): Promise<number> {
  const request: WireRequest = { method: "PATCH", target: path, headers: [KEY, JSON_TYPE], body: new TextEncoder().encode(JSON.stringify(body)) };
  return (await sendHttp(base, request)).status;
}

/** Different list queries, drawn from the document's filters (the answers' cache keys all differ). */
const queries = fc.uniqueArray(
  fc
    .record({
      limit: fc.integer({ min: 30, max: 100 }),
      offset: fc.integer({ min: 0, max: 2 }),
      name: fc.constantFrom("", "a", "agent", "-", "e"),
      reconciled: fc.constantFrom("", "&remote_reconciled=false"),
    })
    .map(({ limit, offset, name, reconciled }) => `/v2/deployments?limit=${limit}&offset=${offset}${name ? `&name_contains=${name}` : ""}${reconciled}`),
  { minLength: 70, maxLength: 70 },
);

it("the simulator's memory stays bounded after large patches and many different list queries", async () => {
  const sim = await startSimulatorProcess();
  const list = (await sendHttp(sim.url, { method: "GET", target: "/v2/deployments?limit=100", headers: [KEY] })).text;
  const ids: string[] = JSON.parse(list).resources.map((d: { id: string }) => d.id);
  const before = rssMiB(sim.pid);
  const rng = random(SEED);
  // 12 deployments of ~600 KB each: one page of all of them is ~7 MB.
  for (const id of ids.slice(0, 12)) expect(await patch(sim.url, `/v2/deployments/${id}`, largePatch(rng, 600_000))).toBe(200);
  const afterPatches = rssMiB(sim.pid);
  const paths = fc.sample(queries, { seed: SEED, numRuns: 1 })[0]!;
  let served = 0;
  for (const path of paths) {
    const answer = await sendHttp(sim.url, { method: "GET", target: path, headers: [KEY] });
    expect(answer.status, path).toBe(200);
    served += answer.text.length;
  }
  const after = rssMiB(sim.pid);
  console.log(
    `[fuzz] ${JSON.stringify({ property: "memory:simulator", rssMiB: { before: Math.round(before), afterPatches: Math.round(afterPatches), after: Math.round(after) }, servedMiB: Math.round(served / 2 ** 20), seed: SEED })}`,
  );
  // Unbounded, the answers alone would hold `served` bytes (over 300 MiB); the caches are bounded by bytes.
  expect(served).toBeGreaterThan(300 * 2 ** 20);
  expect(after - before, "RSS growth in MiB").toBeLessThan(250);
});

it("the mock's memory stays bounded after many large requests, valid and over the size bound", async () => {
  const mock = await startMockProcess();
  try {
    const pid = mock.child.pid!;
    const before = rssMiB(pid);
    const rng = random(SEED);
    const path = "/v2/deployments/e1d7b3a9-6c2f-4e5b-8a1d-3f9c7b2e4a60";
    for (let i = 0; i < 6; i++) expect(await patch(mock.baseUrl, path, largePatch(rng, 900_000))).toBe(200);
    for (let i = 0; i < 8; i++) {
      const body = new Uint8Array(REQUEST_BOUNDS.maxBodyBytes * 2).fill(0x20);
      expect((await sendHttp(mock.baseUrl, { method: "PATCH", target: path, headers: [KEY, JSON_TYPE], body })).status).toBe(413);
    }
    const after = rssMiB(pid);
    console.log(`[fuzz] ${JSON.stringify({ property: "memory:mock", rssMiB: { before: Math.round(before), after: Math.round(after) }, seed: SEED })}`);
    expect(after - before, "RSS growth in MiB").toBeLessThan(300);
  } finally {
    await mock.stop();
  }
});
