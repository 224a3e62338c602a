// One seed for the mock and the simulator. The examples Prism answers (npm start, static mode) are
// written from the simulator's seed by tools/build/seed-examples.ts (npm run build runs it): first,
// the files must be what the seed gives now (the drift check: a seed change without a build fails
// here); then the mock and the simulator are asked the same GETs for every id and list the mock
// holds, and must answer the same JSON.
//
// Normalised: nothing. The simulator's clock is stopped at the examples' moment (EXAMPLES_NOW)
// instead: its in-progress revisions take their updated_at from the clock and move on with it,
// which a static mock cannot do, so at any other moment those revisions differ by design.
// Not compared, because the mock answers one example per list and only the ids the document shows:
// the revision lists of the other deployments, the connections of other agents, the ids beyond the
// first page of deployments (the simulator seeds thirty by default, the document shows four).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMock, type RunningMock } from "../../src/mock/front.js";
import { createSimulator, type Simulator } from "../../src/simulator/core/index.js";
import { EXAMPLES_NOW, SEED_EXAMPLES, staleExampleFiles } from "../../tools/build/seed-examples.ts";
import { document } from "../support/document.js";

const KEY = { "x-api-key": "dev" };
let mock: RunningMock;
let sim: Simulator;
const stopped = () => createSimulator({ now: () => Date.parse(EXAMPLES_NOW), stepSeconds: 2 });

beforeAll(async () => {
  mock = await startMock({ port: 0 });
  sim = stopped();
}, 60_000);
afterAll(async () => {
  await mock?.close();
});

async function fromMock(path: string): Promise<unknown> {
  const response = await fetch(`${mock.baseUrl}${path}`, { headers: KEY });
  expect(response.status, `mock ${path}`).toBe(200);
  return response.json();
}

async function fromSimulator(path: string): Promise<unknown> {
  const response = await sim.fetch(`https://sim.example.test${path}`, { headers: KEY });
  expect(response.status, `simulator ${path}`).toBe(200);
  return response.json();
}

describe("the mock's examples are the simulator's seed", () => {
  it("every example written from the seed is as the seed gives it now (run npm run build otherwise)", async () => {
    expect(Object.keys(SEED_EXAMPLES).length).toBeGreaterThan(15);
    expect(await staleExampleFiles(stopped)).toEqual([]);
  });

  it("the same GETs get the same answers: every list and every id the mock holds", async () => {
    const page = (await fromSimulator("/v2/deployments?limit=4")) as { resources: { id: string; source_config: { integration_id?: string } }[] };
    const paths = [
      "/v2/deployments?limit=4",
      "/v2/deployments?limit=2&offset=2",
      "/v2/listeners",
      "/v2/auth/providers",
      "/v2/auth/agents/support-agent/connections",
    ];
    for (const deployment of page.resources) paths.push(`/v2/deployments/${deployment.id}`);
    // Each revision the mock holds on its own (getRevision's examples), wherever in the seed it is, and the one revision list it holds.
    const revisionExamples = ["RevisionBuildFailed", "RevisionDeployFailed", "RevisionBuilding", "RevisionDeployed"].map(
      (n) => document.components.examples[n].value.id,
    );
    const all = (await fromSimulator("/v2/deployments?limit=100")) as { resources: { id: string }[] };
    for (const deployment of all.resources) {
      const revisions = (await fromSimulator(`/v2/deployments/${deployment.id}/revisions?limit=100`)) as { resources: { id: string }[] };
      for (const revision of revisions.resources)
        if (revisionExamples.includes(revision.id)) paths.push(`/v2/deployments/${deployment.id}/revisions/${revision.id}`);
    }
    paths.push(`/v2/deployments/${page.resources[0]!.id}/revisions`);
    for (const provider of ["github", "google"]) paths.push(`/v2/auth/providers/${provider}`);
    for (const example of ["RepositoryListScm", "RepositoryListForge"]) {
      const integration = document.components.examples[example].value[0].host_integration_id as string;
      paths.push(example === "RepositoryListScm" ? `/v1/integrations/scm/${integration}/repos` : `/v1/integrations/forge/scm/${integration}/repos`);
    }
    const unique = [...new Set(paths)];
    expect(unique.length).toBeGreaterThan(15);
    for (const path of unique) expect(await fromMock(path), path).toEqual(await fromSimulator(path));
  }, 60_000);

  it("the default simulator lists the same four first: the same ids, names, timestamps and order", async () => {
    const live = createSimulator({ stepSeconds: 2 });
    const first = (await (await live.fetch("https://sim.example.test/v2/deployments?limit=4", { headers: KEY })).json()) as {
      resources: Record<string, unknown>[];
    };
    const shown = (await fromMock("/v2/deployments?limit=4")) as { resources: Record<string, unknown>[] };
    const identity = (d: Record<string, unknown>) => ({ id: d.id, name: d.name, source: d.source, created_at: d.created_at });
    expect(first.resources.map(identity)).toEqual(shown.resources.map(identity));
  });
});
