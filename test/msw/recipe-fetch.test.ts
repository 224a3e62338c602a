// #region readme
import { createDeploymentsClient, unwrap } from "../../src/index.js";
import { createSimulator, SEED_IDS } from "../../src/simulator/node/index.js";

const sim = createSimulator({ stepSeconds: 2 });
const client = createDeploymentsClient({ baseUrl: "https://api.example.test", apiKey: "dev", fetch: sim.fetch });

const deployment_id = SEED_IDS.deployment_id;
const { latest_revision_id } = unwrap(
  await client.PATCH("/v2/deployments/{deployment_id}", {
    params: { path: { deployment_id } },
    body: { source_revision_config: { repo_ref: "release" } },
  }),
);
await sim.advance(60);
const revision = unwrap(
  await client.GET("/v2/deployments/{deployment_id}/revisions/{revision_id}", {
    params: { path: { deployment_id, revision_id: latest_revision_id! } },
  }),
);
console.log(revision.status); // DEPLOYED
// #endregion readme

// The README's plain `fetch` recipe above (no MSW, no server: the simulator's fetch handed to the
// client), run as it is written; test/msw/readme.test.ts checks that the README shows exactly the
// code between the region markers, with the package's import names.
import { expect, test } from "vitest";

test("the plain fetch recipe ends with the new revision DEPLOYED, on the deployment the README names", async () => {
  expect(revision.status).toBe("DEPLOYED");
  expect(revision.id).toBe(latest_revision_id);
  expect(revision.source_revision_config?.repo_ref).toBe("release");
  const deployment = unwrap(await client.GET("/v2/deployments/{deployment_id}", { params: { path: { deployment_id } } }));
  expect(deployment.active_revision_id).toBe(latest_revision_id);
});
