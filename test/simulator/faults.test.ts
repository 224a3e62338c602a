// Latency and faults on demand: createSimulator options, the simulator's methods, the control API
// (POST /_simulator/latency, /faults, /faults/clear) in-process and over HTTP, and their validation.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { problemDetails } from "../../src/shared/problems.js";
import { createSimulator, SEED_IDS, SimulatorControlError, startSimulator, type RunningSimulator } from "../../src/simulator/node/index.js";
import { ROOT } from "../support/document.js";
import { API_KEY, Client } from "./support.js";

const BASE = "https://sim.example.test";
const deploymentPath = `/v2/deployments/${SEED_IDS.deployment_id}`;
const headers = { "x-api-key": API_KEY };

describe("faults in-process", () => {
  it("fails the next N requests of one operation with the status asked for, then answers as before", async () => {
    const sim = createSimulator();
    await sim.injectFault({ operation: "getDeployment", count: 2, fault: 503, retryAfterSeconds: 7 });
    expect((await sim.status()).faults).toEqual([{ operation: "getDeployment", count: 2, fault: 503, retry_after_seconds: 7 }]);
    // Another operation is not touched.
    expect((await sim.fetch(`${BASE}/v2/deployments`, { headers })).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const failed = await sim.fetch(`${BASE}${deploymentPath}`, { headers });
      expect(failed.status).toBe(503);
      expect(failed.headers.get("retry-after")).toBe("7");
      expect(failed.headers.get("content-type")).toBe("application/problem+json");
      expect((await failed.json()).type).toBe(problemDetails("service-unavailable", "").type);
    }
    expect((await sim.fetch(`${BASE}${deploymentPath}`, { headers })).status).toBe(200);
    expect((await sim.status()).faults).toEqual([]);
  });

  it('"*" fails any operation; 429 carries Retry-After; 500 is the internal problem; rules apply in order', async () => {
    const sim = createSimulator({ faults: [{ fault: 429 }, { operation: "listListeners", fault: 500 }] });
    const first = await sim.fetch(`${BASE}/v2/auth/providers`, { headers });
    expect([first.status, first.headers.get("retry-after")]).toEqual([429, "1"]);
    expect((await sim.fetch(`${BASE}/v2/listeners`, { headers })).status).toBe(500);
    expect((await sim.fetch(`${BASE}/v2/listeners`, { headers })).status).toBe(200);
  });

  it('"drop" rejects the fetch with a TypeError, like a network error; nothing is changed', async () => {
    const sim = createSimulator();
    await sim.injectFault({ operation: "patchDeployment", fault: "drop" });
    const before = await (await sim.fetch(`${BASE}${deploymentPath}`, { headers })).json();
    const patch = () =>
      sim.fetch(`${BASE}${deploymentPath}`, { method: "PATCH", headers: { ...headers, "content-type": "application/json" }, body: '{"secrets": []}' });
    await expect(patch()).rejects.toBeInstanceOf(TypeError);
    expect((await (await sim.fetch(`${BASE}${deploymentPath}`, { headers })).json()).latest_revision_id).toBe(before.latest_revision_id);
    expect((await patch()).status).toBe(200);
  });

  it("a latency delays each API answer (fixed or drawn from a range), not the control API", async () => {
    const sim = createSimulator({ latency: 80 });
    let started = performance.now();
    await sim.fetch(`${BASE}${deploymentPath}`, { headers });
    expect(performance.now() - started).toBeGreaterThanOrEqual(75);
    await sim.setLatency({ minMs: 40, maxMs: 60 });
    expect((await sim.status()).latency).toEqual({ min_ms: 40, max_ms: 60 });
    started = performance.now();
    await sim.fetch(`${BASE}/v2/listeners`, { headers });
    expect(performance.now() - started).toBeGreaterThanOrEqual(35);
    await sim.clearFaults();
    expect((await sim.status()).latency).toEqual({ ms: 0 });
  });

  it("reset puts latency and faults back to the options", async () => {
    const sim = createSimulator({ latency: 5 });
    await sim.injectFault({ fault: 500, count: 3 });
    await sim.setLatency(0);
    const status = await sim.reset();
    expect(status.faults).toEqual([]);
    expect(status.latency).toEqual({ ms: 5 });
  });

  it("refuses bad options and arguments, naming the field", async () => {
    expect(() => createSimulator({ latency: -1 })).toThrow(/latency ms must be a whole number of milliseconds from 0 to 60000/);
    expect(() => createSimulator({ latency: { minMs: 50, maxMs: 10 } })).toThrow(/maxMs must be at least min_ms \(50\)/);
    expect(() => createSimulator({ faults: [{ operation: "nope", fault: 503 }] })).toThrow(/faults\[0\] operation must be an operationId/);
    const sim = createSimulator();
    const error = await sim.injectFault({ fault: 404 as never, count: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SimulatorControlError);
    expect((error as SimulatorControlError).status).toBe(422);
    expect((error as Error).message).toMatch(/\/count must be a whole number from 1 to 10000/);
    expect((error as Error).message).toMatch(/\/fault must be 429, 500, 503 or "drop"/);
  });
});

describe("faults over HTTP (the control API and node:http)", () => {
  let running: RunningSimulator;
  let client: Client;
  beforeAll(async () => {
    running = await startSimulator({ port: 0, quiet: true });
    client = new Client(running.url);
  });
  afterAll(() => running.close());

  it("POST /_simulator/faults and /latency take JSON, answer the status, and validate with 422 problems", async () => {
    const bad = await client.request("POST", "/_simulator/faults", { operation: 3, count: 1.5, fault: "timeout", extra: true });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual(["/count", "/extra", "/fault", "/operation"]);
    expect((await client.request("POST", "/_simulator/faults", { fault: 500, retry_after_seconds: 3 })).body.errors[0].pointer).toBe("/retry_after_seconds");
    const latency = await client.request("POST", "/_simulator/latency", { ms: 10, min_ms: 1 });
    expect([latency.status, latency.body.errors[0].pointer]).toEqual([422, "/ms"]);
    expect((await client.request("POST", "/_simulator/latency", { min_ms: 5 })).body.errors[0].pointer).toBe("/max_ms");
    expect((await client.request("POST", "/_simulator/faults", "not json")).status).toBe(400);
    expect((await client.request("POST", "/_simulator/faults", { fault: 503 }, { "content-type": "text/plain" })).status).toBe(415);
    const ok = await client.request("POST", "/_simulator/faults", { operation: "listDeployments", count: 1, fault: 503 });
    expect(ok.status).toBe(200);
    expect(ok.body.faults).toEqual([{ operation: "listDeployments", count: 1, fault: 503, retry_after_seconds: 1 }]);
    const failed = await fetch(`${running.url}/v2/deployments`, { headers });
    expect([failed.status, failed.headers.get("retry-after")]).toEqual([503, "1"]);
    expect((await client.request("POST", "/_simulator/faults/clear", {})).body.faults).toEqual([]);
  });

  it('"drop" destroys the socket: the client sees a network error, and the server goes on serving', async () => {
    await client.request("POST", "/_simulator/faults", { operation: "getDeployment", fault: "drop" });
    await expect(fetch(`${running.url}${deploymentPath}`, { headers })).rejects.toBeInstanceOf(TypeError);
    expect((await fetch(`${running.url}${deploymentPath}`, { headers })).status).toBe(200);
  });

  it("at most 100 rules pending", async () => {
    for (let i = 0; i < 100; i++) expect((await client.request("POST", "/_simulator/faults", { operation: "getOAuthProvider", fault: 500 })).status).toBe(200);
    const refused = await client.request("POST", "/_simulator/faults", { fault: 500 });
    expect(refused.status).toBe(422);
    await client.request("POST", "/_simulator/faults/clear", {});
  });
});

describe("dms-simulator --latency and --fail", () => {
  /** Runs the bin until it prints its URL (or exits); the caller stops it. */
  function run(args: string[]) {
    const child = spawn(process.execPath, [join(ROOT, "dist/simulator/node/cli.js"), "--port", "0", "--quiet", ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (c) => (stderr += c));
    const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const url = new Promise<string | undefined>((resolve) => {
      createInterface({ input: child.stdout }).once("line", resolve);
      exit.then(() => resolve(undefined));
    });
    return { child, url, exit, stderr: () => stderr };
  }

  it("starts with the latency and the faults given", async () => {
    const sim = run(["--latency", "10-20", "--fail", "getDeployment:503:2", "--fail", "*:429"]);
    try {
      const url = await sim.url;
      const status = await (await fetch(`${url}/_simulator`)).json();
      expect(status.latency).toEqual({ min_ms: 10, max_ms: 20 });
      expect(status.faults).toEqual([
        { operation: "getDeployment", count: 2, fault: 503, retry_after_seconds: 1 },
        { operation: "*", count: 1, fault: 429, retry_after_seconds: 1 },
      ]);
      expect((await fetch(`${url}${deploymentPath}`, { headers })).status).toBe(503);
    } finally {
      sim.child.kill("SIGTERM");
      await sim.exit;
    }
  });

  for (const [args, message] of [
    [["--latency", "fast"], /--latency must be milliseconds/],
    [["--latency", "70000"], /--latency: ms must be a whole number of milliseconds from 0 to 60000/],
    [["--fail", "getDeployment:404"], /--fail must be OPERATION:FAULT\[:COUNT\]/],
    [["--fail", "noSuchOperation:503"], /--fail noSuchOperation:503: operation must be an operationId/],
  ] as const) {
    it(`refuses ${args.join(" ")} with a message naming the flag`, async () => {
      const sim = run([...args]);
      // A usage error: exit 2, as every local server (test/check/local-server/edges.test.ts).
      expect(await sim.exit).toBe(2);
      expect(sim.stderr()).toMatch(message);
    });
  }
});
