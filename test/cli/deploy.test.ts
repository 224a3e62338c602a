// dms deploy and dms wait against the simulator, one test per exit code: each runs the compiled CLI
// as a child process. Tests use distinct seeded deployments so they can run at the same time.
import { createServer, type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type RunningSimulator } from "../../src/simulator/node/index.js";
import { sendJson, startLocalServer, type LocalServer } from "../client/local-server.js";
import { API_KEY, dms, jsonLines, SimulatorControl, startDms } from "./support.js";

let fast: RunningSimulator;
let slow: RunningSimulator;
let sim: SimulatorControl;
let slowSim: SimulatorControl;
let ids: string[];
/** The scm_host deployments, the ones --ref fits (src/shared/source-rules.ts), each used by one test. */
let scm: string[];

beforeAll(async () => {
  // 0.05 s per state: a revision is DEPLOYED after about 0.35 s. 30 s per state: it stays in progress.
  [fast, slow] = await Promise.all([startSimulator({ port: 0, stepSeconds: 0.05, quiet: true }), startSimulator({ port: 0, stepSeconds: 30, quiet: true })]);
  sim = new SimulatorControl(fast.url);
  slowSim = new SimulatorControl(slow.url);
  ids = await sim.deploymentIds();
  scm = (await sim.get("/v2/deployments?limit=100")).resources.filter((d: { source: string }) => d.source === "scm_host").map((d: { id: string }) => d.id);
});

afterAll(async () => {
  await Promise.all([fast?.close(), slow?.close()]);
});

/** A port that nothing listens on: one the system just handed out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const FAST_POLL = ["--interval", "20ms"];

describe.concurrent("dms deploy", () => {
  it("exit 0: patches, waits on the revision the PATCH created, prints one line per state with the elapsed time", async () => {
    const id = scm[0]!;
    const result = await dms(["deploy", id, "--ref", "release/2.4", ...FAST_POLL], sim.env());
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const deployment = await sim.get(`/v2/deployments/${id}`);
    const revisionId: string = deployment.latest_revision_id;
    expect(deployment.source_revision_config.repo_ref).toBe("release/2.4");
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe(`deployment ${id}: revision ${revisionId} created`);
    const states = lines.slice(1, -1).map((line) => /^\s*\d+\.\ds {2}([A-Z_]+)$/.exec(line)?.[1]);
    // Every line is a state; the first is CREATING (or a later one if a poll came late); the last is DEPLOYED.
    expect(states.every((s) => s !== undefined)).toBe(true);
    expect(new Set(states).size).toBe(states.length);
    expect(states.at(-1)).toBe("DEPLOYED");
    expect(lines.at(-1)).toMatch(new RegExp(`^revision ${revisionId} DEPLOYED after \\d+\\.\\ds$`));
    // No colour codes when stdout is not a terminal.
    expect(result.stdout).not.toMatch(/\x1b\[/);
  });

  it("--json: only JSON lines on stdout, an event per state change, then the result object", async () => {
    const id = ids[1]!;
    const result = await dms(["deploy", id, "--image-uri", "registry.example.com/agent:2", "--json", ...FAST_POLL], sim.env());
    expect(result.code).toBe(0);
    expect(result.stderr).toBe("");
    const events = jsonLines(result.stdout);
    const revisionId = (await sim.get(`/v2/deployments/${id}`)).latest_revision_id;
    expect(events[0]).toMatchObject({ event: "revision_created", deployment_id: id, revision_id: revisionId });
    const statuses = events.filter((e) => e.event === "status");
    expect(statuses.length).toBeGreaterThanOrEqual(2);
    for (const e of statuses) expect(e).toMatchObject({ deployment_id: id, revision_id: revisionId, elapsed_ms: expect.any(Number) });
    expect(statuses.at(-1)!.status).toBe("DEPLOYED");
    const elapsed = events.map((e) => e.elapsed_ms);
    expect(elapsed).toEqual([...elapsed].sort((a, b) => a - b));
    expect(events.at(-1)).toEqual({
      event: "result",
      deployment_id: id,
      revision_id: revisionId,
      status: "DEPLOYED",
      elapsed_ms: expect.any(Number),
      exit_code: 0,
    });
  });

  for (const [index, status] of [
    [2, "BUILD_FAILED"],
    [3, "CREATE_FAILED"],
    [4, "DEPLOY_FAILED"],
  ] as const) {
    it(`exit 1: the revision ends ${status}`, async () => {
      const id = scm[index - 1]!;
      await sim.failNext(id, status);
      const result = await dms(["deploy", id, "--ref", "main", "--json", ...FAST_POLL], sim.env());
      expect(result.code).toBe(1);
      expect(jsonLines(result.stdout).at(-1)).toMatchObject({ event: "result", status, exit_code: 1 });
    });
  }

  it("exit 3: the revision does not end within --timeout; the message names the last state", async () => {
    const id = scm[4]!;
    // A simulator of its own whose revisions stay in CREATING for an hour: the tests of this file
    // run at once, and one of them advances the shared slow simulator's clock. 3 s leaves the first
    // poll time to answer on a loaded machine (before it, the message says "none").
    const still = await startSimulator({ port: 0, stepSeconds: 3600, quiet: true });
    let result: Awaited<ReturnType<typeof dms>>;
    try {
      result = await dms(["deploy", id, "--ref", "main", "--timeout", "3s", "--interval", "50ms"], new SimulatorControl(still.url).env());
    } finally {
      await still.close();
    }
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/did not end within 3(\.0)?s; last status (CREATING|none)/);
    // The revision may still end well: the line that takes the wait up again, as after a signal.
    const revision = /^revision {3}(\S+)$/m.exec(result.stderr)?.[1];
    expect(revision).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.stderr).toContain(`resume with: dms wait ${id} ${revision} --timeout 3s --interval 50ms`);
  });

  it("exit 4: a second deploy (--no-wait) of the same deployment interrupts the revision the first one waits on", async () => {
    const id = scm[5]!;
    const first = startDms(["deploy", id, "--ref", "one", "--json", "--interval", "50ms"], slowSim.env());
    await first.waitForStdout('"event":"status"');
    const second = await dms(["deploy", id, "--ref", "two", "--no-wait", "--json"], slowSim.env());
    expect(second.code).toBe(0);
    const secondResult = jsonLines(second.stdout).at(-1);
    expect(secondResult).toMatchObject({ event: "result", deployment_id: id, exit_code: 0 });
    // The created revision read once: its status as the service has it now, never null (issue 32).
    expect(["CREATING", "QUEUED", "AWAITING_BUILD", "BUILDING", "AWAITING_DEPLOY", "DEPLOYING", "INTERRUPTED"]).toContain(secondResult.status);
    const result = await first.ended;
    expect(result.code).toBe(4);
    const firstResult = jsonLines(result.stdout).at(-1);
    expect(firstResult).toMatchObject({ status: "INTERRUPTED", exit_code: 4 });
    expect(firstResult.revision_id).not.toBe(secondResult.revision_id);
    expect((await slowSim.get(`/v2/deployments/${id}`)).latest_revision_id).toBe(secondResult.revision_id);
  });

  it("exit 6: an unknown deployment (404) prints the problem's status, title and detail", async () => {
    const unknown = "00000000-0000-4000-8000-000000000000";
    const result = await dms(["deploy", unknown, "--ref", "main"], sim.env());
    expect(result.code).toBe(6);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(`GET /v2/deployments/${unknown} answered 404`);
    // The title, then the detail.
    expect(result.stderr).toMatch(/answered 404 \w[^:]*: There is no deployment/);
  });

  it("exit 6: a 422 prints each field error with its parameter", async () => {
    // A tenant id that is not a UUID is the server's to refuse (the CLI checks only the ids it is given as arguments).
    const result = await dms(["deploy", scm[0]!, "--ref", "main", "--json"], sim.env({ DMS_TENANT_ID: "not-a-uuid" }));
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(/answered 422/);
    expect(result.stderr).toMatch(/^ {2}X-Tenant-Id: .+/im);
    const last = jsonLines(result.stdout).at(-1);
    expect(last).toMatchObject({ event: "result", exit_code: 6, error: { kind: "api_error", status: 422 } });
    expect(last.error.errors).toContainEqual(expect.objectContaining({ parameter: expect.stringMatching(/^x-tenant-id$/i) }));
  });

  it("exit 6: a server that cannot be reached (after the client's retries)", async () => {
    const port = await closedPort();
    const result = await dms(["deploy", scm[0]!, "--ref", "main"], { DMS_BASE_URL: `http://127.0.0.1:${port}`, DMS_API_KEY: API_KEY });
    expect(result.code).toBe(6);
    expect(result.stderr).toContain(`could not reach http://127.0.0.1:${port}: ECONNREFUSED`);
  });

  it("exit 130: Ctrl+C prints the ids and the dms wait command that resumes; that command then finishes the wait", async () => {
    const id = scm[6]!;
    // Its own slow simulator: this test moves the clock, and the other tests of this file run at
    // the same time on the shared one, expecting it to stand still.
    const own = await startSimulator({ port: 0, stepSeconds: 30, quiet: true });
    const ownSim = new SimulatorControl(own.url);
    try {
      const run = startDms(["deploy", id, "--ref", "main", "--interval", "50ms", "--timeout", "10m"], ownSim.env());
      await run.waitForStdout("CREATING");
      run.child.kill("SIGINT");
      const result = await run.ended;
      expect(result.code).toBe(130);
      const revisionId = (await ownSim.get(`/v2/deployments/${id}`)).latest_revision_id;
      expect(result.stderr).toContain(`deployment ${id}`);
      expect(result.stderr).toContain(`revision   ${revisionId}`);
      const resume = /resume with: (.+)$/m.exec(result.stderr)?.[1];
      expect(resume).toBe(`dms wait ${id} ${revisionId} --timeout 10m --interval 50ms`);
      // Move the clock past the rest of the states, then run the printed command.
      await ownSim.advance(600);
      const resumed = await dms(resume!.split(" ").slice(1), ownSim.env());
      expect(resumed.code).toBe(0);
      expect(resumed.stdout).toMatch(/DEPLOYED/);
    } finally {
      await own.close();
    }
  });
});

describe.concurrent("dms wait", () => {
  it("exit 4: a revision that ended SKIPPED", async () => {
    let found: { deployment: string; revision: string } | undefined;
    for (const deployment of ids) {
      const page = await sim.get(`/v2/deployments/${deployment}/revisions?status=SKIPPED&limit=1`);
      if (page.resources[0]) {
        found = { deployment, revision: page.resources[0].id };
        break;
      }
    }
    expect(found, "the seed has a SKIPPED revision").toBeDefined();
    const result = await dms(["wait", found!.deployment, found!.revision, "--json"], sim.env());
    expect(result.code).toBe(4);
    expect(jsonLines(result.stdout)).toEqual([
      { event: "status", deployment_id: found!.deployment, revision_id: found!.revision, status: "SKIPPED", elapsed_ms: expect.any(Number) },
      { event: "result", deployment_id: found!.deployment, revision_id: found!.revision, status: "SKIPPED", elapsed_ms: expect.any(Number), exit_code: 4 },
    ]);
  });

  it("exit 0: waits for a revision created with deploy --no-wait", async () => {
    const id = scm[7]!;
    const created = await dms(["deploy", id, "--ref", "main", "--no-wait"], sim.env());
    expect(created.code).toBe(0);
    const revisionId = /revision (\S+) created/.exec(created.stdout)?.[1];
    expect(revisionId).toBe((await sim.get(`/v2/deployments/${id}`)).latest_revision_id);
    const result = await dms(["wait", id, revisionId!, ...FAST_POLL], sim.env());
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`revision ${revisionId} DEPLOYED after`));
  });

  it("exit 6: an unknown revision", async () => {
    const result = await dms(["wait", ids[0]!, "00000000-0000-4000-8000-000000000000"], sim.env());
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(/answered 404/);
  });
});

describe("dms deploy against a server whose patch creates no revision", () => {
  let server: LocalServer;
  const id = "6b0d8a52-3c1e-4f7a-9b2d-1e5f3a7c9d01";
  beforeAll(async () => {
    // A real server that applies the patch but leaves latest_revision_id where it was.
    server = await startLocalServer((_req, res) => sendJson(res, 200, { id, latest_revision_id: "0c6b5e0a-7f6d-4b1e-8a47-3d2f1c9e8b70" }));
  });
  afterAll(() => server?.close());

  it("exit 5, without waiting on the old revision", async () => {
    const result = await dms(["deploy", id, "--ref", "main", "--json"], { DMS_BASE_URL: server.baseUrl, DMS_API_KEY: API_KEY });
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(/created no revision/);
    expect(jsonLines(result.stdout).at(-1)).toMatchObject({ event: "result", revision_id: null, status: null, exit_code: 5 });
    expect(server.requests.map((r) => r.method)).toEqual(["GET", "PATCH"]);
    expect(JSON.parse(server.requests[1]!.body)).toEqual({ source_revision_config: { repo_ref: "main" } });
  });
});

describe("dms deploy against a server that never answers the PATCH", () => {
  let server: LocalServer;
  const id = "6b0d8a52-3c1e-4f7a-9b2d-1e5f3a7c9d01";
  beforeAll(async () => {
    server = await startLocalServer((req, res) => {
      if (req.method === "GET") sendJson(res, 200, { id, latest_revision_id: null });
      // The PATCH is left hanging; close() drops the connection.
    });
  });
  afterAll(() => server?.close());

  it("exit 6 after --request-timeout, sent once, saying the patch may have been applied", async () => {
    const result = await dms(["deploy", id, "--ref", "main", "--request-timeout", "300ms", "--json"], { DMS_BASE_URL: server.baseUrl, DMS_API_KEY: API_KEY });
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(/PATCH \/v2\/deployments\/\S+ timed out after 300 ms.*; the patch may have been applied/);
    expect(server.requests.map((r) => r.method)).toEqual(["GET", "PATCH"]);
    expect(jsonLines(result.stdout).at(-1)).toMatchObject({ exit_code: 6, error: { kind: "request_timeout", method: "PATCH", timeout_ms: 300 } });
  });
});
