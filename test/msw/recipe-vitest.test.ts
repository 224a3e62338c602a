// The README's "Vitest + MSW" recipe, run as it is written (test/msw/readme.test.ts checks that the
// README shows exactly the code between the region markers, with the package's import names).
// #region readme
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { createDeploymentsClient, unwrap } from "../../src/index.js";
import { simulatorHandlers } from "../../src/msw.js";
import { createSimulator, SEED_IDS } from "../../src/simulator/node/index.js";

const baseUrl = "https://api.example.test";
const sim = createSimulator();
const server = setupServer(...simulatorHandlers(sim, { baseUrl }));

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => sim.reset()); // every test starts from the seed
afterAll(() => server.close());

// The code under test calls the API with the global fetch, as it does in the app.
const client = createDeploymentsClient({ baseUrl, apiKey: "test" });

test("a new branch gets deployed", async () => {
  const deployment_id = SEED_IDS.deployment_id;
  const patched = unwrap(
    await client.PATCH("/v2/deployments/{deployment_id}", {
      params: { path: { deployment_id } },
      body: { source_revision_config: { repo_ref: "feature/login" } },
    }),
  );
  const revision_id = patched.latest_revision_id!;
  await sim.advance(60); // a minute of simulated time: the revision goes through every state

  const revision = unwrap(await client.GET("/v2/deployments/{deployment_id}/revisions/{revision_id}", { params: { path: { deployment_id, revision_id } } }));
  expect(revision.status).toBe("DEPLOYED");
});
// #endregion readme

test("afterEach(sim.reset) put the seed back: the branch of the test above is gone", async () => {
  const deployment_id = SEED_IDS.deployment_id;
  const revisions = unwrap(await client.GET("/v2/deployments/{deployment_id}/revisions", { params: { path: { deployment_id } } }));
  expect(revisions.resources.map((r) => r.source_revision_config?.repo_ref)).not.toContain("feature/login");
});
