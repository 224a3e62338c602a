// simulatorHandlers with msw/node: the typed client on the global fetch, every request answered by
// an in-process simulator through MSW, and any request MSW does not handle an error.
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createDeploymentsClient, unwrap, type DeploymentsClient } from "../../src/index.js";
import { simulatorHandlers } from "../../src/msw.js";
import { PROBLEM_TYPES } from "../../src/shared/problems.js";
import { createSimulator, SEED_IDS } from "../../src/simulator/node/index.js";

const BASE_URL = "https://api.example.test";
// Served under a path too, as an app that calls its API at https://example.test/dms/v2/... would.
const PREFIXED_URL = "https://example.test/dms";

const sim = createSimulator({ stepSeconds: 2 });
const server = setupServer(...simulatorHandlers(sim, { baseUrl: BASE_URL }), ...simulatorHandlers(sim, { baseUrl: PREFIXED_URL }));
const client: DeploymentsClient = createDeploymentsClient({ baseUrl: BASE_URL, apiKey: "msw-test" });
const deployment_id = SEED_IDS.deployment_id;

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => sim.reset());
afterAll(() => server.close());

async function patchRepoRef(c: DeploymentsClient, repo_ref: string) {
  return unwrap(await c.PATCH("/v2/deployments/{deployment_id}", { params: { path: { deployment_id } }, body: { source_revision_config: { repo_ref } } }));
}

async function getRevision(c: DeploymentsClient, revision_id: string) {
  return unwrap(await c.GET("/v2/deployments/{deployment_id}/revisions/{revision_id}", { params: { path: { deployment_id, revision_id } } }));
}

describe("simulatorHandlers with setupServer (msw/node)", () => {
  it("keeps state across requests: a PATCH shows in the next GET and in the revision list", async () => {
    const before = unwrap(await client.GET("/v2/deployments/{deployment_id}", { params: { path: { deployment_id } } }));
    const patched = await patchRepoRef(client, "feature/msw");
    expect(patched.latest_revision_id).not.toBe(before.latest_revision_id);

    const after = unwrap(await client.GET("/v2/deployments/{deployment_id}", { params: { path: { deployment_id } } }));
    expect(after.latest_revision_id).toBe(patched.latest_revision_id);
    const revisions = unwrap(await client.GET("/v2/deployments/{deployment_id}/revisions", { params: { path: { deployment_id }, query: { limit: 1 } } }));
    expect(revisions.resources.map((r) => [r.id, r.source_revision_config?.repo_ref])).toEqual([[patched.latest_revision_id, "feature/msw"]]);
  });

  it("sim.advance moves a new revision through its states to DEPLOYED, and the deployment then runs it", async () => {
    const { latest_revision_id } = await patchRepoRef(client, "release");
    expect((await getRevision(client, latest_revision_id!)).status).toBe("CREATING");
    await sim.advance(2);
    expect((await getRevision(client, latest_revision_id!)).status).toBe("QUEUED");
    await sim.advance(60);
    expect((await getRevision(client, latest_revision_id!)).status).toBe("DEPLOYED");
    const deployment = unwrap(await client.GET("/v2/deployments/{deployment_id}", { params: { path: { deployment_id } } }));
    expect(deployment.active_revision_id).toBe(latest_revision_id);
  });

  it("sim.failNext makes the next revision end in the state asked for", async () => {
    await sim.failNext(deployment_id, "BUILD_FAILED");
    const { latest_revision_id } = await patchRepoRef(client, "doomed");
    await sim.advance(60);
    expect((await getRevision(client, latest_revision_id!)).status).toBe("BUILD_FAILED");
  });

  it("sim.reset goes back to the seed", async () => {
    const seeded = unwrap(await client.GET("/v2/deployments/{deployment_id}", { params: { path: { deployment_id } } }));
    await patchRepoRef(client, "to-be-forgotten");
    await sim.reset();
    const again = unwrap(await client.GET("/v2/deployments/{deployment_id}", { params: { path: { deployment_id } } }));
    expect(again.latest_revision_id).toBe(seeded.latest_revision_id);
  });

  it("answers errors as problem+json: an invalid body (422, naming the field), an unknown id (404), no API key (401)", async () => {
    const invalid = await client.PATCH("/v2/deployments/{deployment_id}", {
      params: { path: { deployment_id } },
      // @ts-expect-error: repo_ref is a string; sent wrong on purpose
      body: { source_revision_config: { repo_ref: 42 } },
    });
    expect(invalid.response.status).toBe(422);
    expect(invalid.response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(invalid.error).toMatchObject({ status: 422, errors: [expect.objectContaining({ pointer: "/source_revision_config/repo_ref" })] });

    const missing = await client.GET("/v2/deployments/{deployment_id}", { params: { path: { deployment_id: "00000000-0000-4000-8000-000000000000" } } });
    expect(missing.response.status).toBe(404);
    expect(missing.response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(missing.error).toMatchObject({ status: 404 });

    // The global fetch goes through MSW too.
    const anonymous = await fetch(`${BASE_URL}/v2/deployments`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(await anonymous.json()).toMatchObject({ status: 401 });
  });

  it("serves a base URL with a path: the path is taken off before the simulator routes the request", async () => {
    const prefixed = createDeploymentsClient({ baseUrl: PREFIXED_URL, apiKey: "msw-test" });
    const { latest_revision_id } = await patchRepoRef(prefixed, "via-prefix");
    // Same simulator, so the other base URL sees the change.
    expect((await getRevision(client, latest_revision_id!)).source_revision_config?.repo_ref).toBe("via-prefix");
    const unknownRoute = await fetch(`${PREFIXED_URL}/v2/nothing-here`, { headers: { "X-Api-Key": "k" } });
    expect(unknownRoute.status).toBe(404);
  });

  it("the control API is there as well: GET /_simulator names the seed's ids", async () => {
    const control = await fetch(`${BASE_URL}/_simulator`);
    expect(control.status).toBe(200);
    expect(await control.json()).toMatchObject({ seed_ids: { deployment_id } });
  });

  it("a request outside the base URL is not answered by the simulator: with onUnhandledRequest 'error' it fails", async () => {
    await expect(fetch("https://somewhere-else.example.test/v2/deployments")).rejects.toThrow();
    // Nor one whose path only starts with the base URL's.
    await expect(fetch("https://example.test/dmsx/v2/deployments")).rejects.toThrow();
  });

  it("answers as every server does where MSW's own path matching would not: a % that does not decode (400, not MSW's 500 with a stack), the base URL itself (404)", async () => {
    for (const base of [BASE_URL, PREFIXED_URL]) {
      const broken = await fetch(`${base}/v2/deployments/%zz`, { headers: { "X-Api-Key": "k" } });
      expect(broken.status, base).toBe(400);
      expect(await broken.json()).toMatchObject({ type: PROBLEM_TYPES["bad-request"].type });
    }
    for (const url of [PREFIXED_URL, `${PREFIXED_URL}?x=1`]) {
      const bare = await fetch(url, { headers: { "X-Api-Key": "k" } });
      expect(bare.status, url).toBe(404);
      expect(await bare.json()).toMatchObject({ type: PROBLEM_TYPES["not-found"].type, instance: "/" });
    }
  });

  it("a dropped connection (a drop fault) makes fetch reject as on a network error, not a 500 with a stack", async () => {
    await sim.injectFault({ operation: "listListeners", fault: "drop" });
    const error = await fetch(`${BASE_URL}/v2/listeners`, { headers: { "x-api-key": "k" } }).then(
      async (response) => `answered ${response.status}: ${(await response.text()).slice(0, 200)}`,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TypeError);
    expect((await fetch(`${BASE_URL}/v2/listeners`, { headers: { "x-api-key": "k" } })).status).toBe(200);
  });

  it("bad options fail at once, naming what is wrong", () => {
    expect(() => simulatorHandlers(sim, { baseUrl: "/relative" })).toThrow(
      /simulatorHandlers: baseUrl must be an absolute http:\/\/ or https:\/\/ URL, got "\/relative"/,
    );
    // @ts-expect-error: not a simulator
    expect(() => simulatorHandlers({}, { baseUrl: BASE_URL })).toThrow(/simulatorHandlers: sim must be a simulator with a fetch method/);
  });
});
