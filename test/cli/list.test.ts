// dms deployments and dms revisions against the simulator: filters, --limit across pages, tables and JSON lines.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type RunningSimulator } from "../../src/simulator/node/index.js";
import { dms, jsonLines, SimulatorControl } from "./support.js";

// Revisions do not move (1000 s per state): the lists stay as the tests read them.
let simulator: RunningSimulator;
let sim: SimulatorControl;

beforeAll(async () => {
  simulator = await startSimulator({ port: 0, stepSeconds: 1000, quiet: true, seedDeployments: 130 });
  sim = new SimulatorControl(simulator.url);
});
afterAll(() => simulator?.close());

describe.concurrent("dms deployments", () => {
  it("--limit above the page size walks the pages, newest first, as the API lists them", async () => {
    const result = await dms(["deployments", "--limit", "120", "--json"], sim.env());
    expect(result.code).toBe(0);
    const listed = jsonLines(result.stdout);
    expect(listed).toHaveLength(120);
    const first = await sim.get("/v2/deployments?limit=100");
    const second = await sim.get(`/v2/deployments?limit=100&offset=${first.offset}`);
    expect(listed.map((d) => d.id)).toEqual([...first.resources, ...second.resources].slice(0, 120).map((d: { id: string }) => d.id));
  });

  it("filters by name and status, printed as a table", async () => {
    const expected = (await sim.get("/v2/deployments?limit=100&name_contains=AGENT&status=READY")).resources;
    expect(expected.length).toBeGreaterThan(0);
    const result = await dms(["deployments", "--name-contains", "AGENT", "--status", "READY", "--limit", "100"], sim.env());
    expect(result.code).toBe(0);
    const [header, ...rows] = result.stdout.trimEnd().split("\n");
    expect(header).toMatch(/^ID\s+NAME\s+STATUS\s+SOURCE\s+LATEST REVISION$/);
    expect(rows.map((row) => row.split(/\s+/)[0])).toEqual(expected.map((d: { id: string }) => d.id));
    for (const row of rows) expect(row.split(/\s+/)[2]).toBe("READY");
  });

  it("says so on stderr when nothing matches", async () => {
    const result = await dms(["deployments", "--name-contains", "no-such-name"], sim.env());
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe("no deployments\n");
  });
});

describe.concurrent("dms revisions", () => {
  it("--status filters by several states; JSON lines are whole revisions", async () => {
    const ids = await sim.deploymentIds();
    const result = await dms(["revisions", ids[0]!, "--status", "DEPLOYED,BUILD_FAILED", "--json"], sim.env());
    expect(result.code).toBe(0);
    const listed = jsonLines(result.stdout);
    const expected = (await sim.get(`/v2/deployments/${ids[0]}/revisions?status=DEPLOYED,BUILD_FAILED&limit=20`)).resources;
    expect(listed).toEqual(expected);
    for (const revision of listed) expect(["DEPLOYED", "BUILD_FAILED"]).toContain(revision.status);
  });

  it("prints a table with the ref of each revision, and --limit cuts it", async () => {
    // A READY deployment stays READY when deployed, so the concurrent status filter test is not disturbed.
    const id: string = (await sim.get("/v2/deployments?status=READY&limit=1")).resources[0].id;
    await dms(["deploy", id, "--ref", "feature/table", "--no-wait"], sim.env());
    const result = await dms(["revisions", id, "--limit", "1"], sim.env());
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^ID\s+STATUS\s+CREATED\s+REF OR IMAGE$/);
    expect(lines[1]).toMatch(/^\S+\s+[A-Z_]+\s+\d{4}-\d\d-\d\dT\S+\s+feature\/table$/);
  });
});
