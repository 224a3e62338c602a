// #region readme
import { createDeploymentsClient } from "../../src/index.js";
import { simulatorHandlers } from "../../src/msw.js";
import { createSimulator, SEED_IDS } from "../../src/simulator/node/index.js";

const baseUrl = "https://api.example.test";
const sim = createSimulator({ stepSeconds: 2 });

// DeploymentList.stories.ts: msw-storybook-addon serves parameters.msw.handlers to every story of the file.
const meta = {
  title: "Deployments/List",
  parameters: { msw: { handlers: simulatorHandlers(sim, { baseUrl }) } },
};
export default meta;

export const Seeded = { loaders: [() => sim.reset()] };

// Opens on a deployment whose new revision is on its way: the loader patches before the story renders.
export const Deploying = {
  loaders: [
    async () => {
      await sim.reset();
      const setup = createDeploymentsClient({ baseUrl, apiKey: "storybook", fetch: sim.fetch });
      await setup.PATCH("/v2/deployments/{deployment_id}", {
        params: { path: { deployment_id: SEED_IDS.deployment_id } },
        body: { source_revision_config: { repo_ref: "feature/wip" } },
      });
    },
  ],
};
// #endregion readme

// The README's Storybook recipe above, as a story file would hold it. Storybook is not installed
// here, so msw/node stands in for the addon's browser worker: it serves the same
// parameters.msw.handlers, and the component's own calls (the client on the global fetch) get the
// state the story's loader set up. test/msw/readme.test.ts checks the README shows this code.
import { setupServer } from "msw/node";
import { afterAll, beforeAll, expect, test } from "vitest";
import { unwrap } from "../../src/index.js";

const server = setupServer(...meta.parameters.msw.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());

// What the component under the story does: the client on the global fetch, as in the app.
const component = createDeploymentsClient({ baseUrl, apiKey: "component" });
const getDeployment = async () =>
  unwrap(await component.GET("/v2/deployments/{deployment_id}", { params: { path: { deployment_id: SEED_IDS.deployment_id } } }));

test("the Deploying story's loader leaves a revision in progress that the component then reads through MSW", async () => {
  const seeded = await getDeployment();
  for (const load of Deploying.loaders) await load();
  const deploying = await getDeployment();
  expect(deploying.latest_revision_id).not.toBe(seeded.latest_revision_id);
  const revision = unwrap(
    await component.GET("/v2/deployments/{deployment_id}/revisions/{revision_id}", {
      params: { path: { deployment_id: SEED_IDS.deployment_id, revision_id: deploying.latest_revision_id! } },
    }),
  );
  expect(revision).toMatchObject({ status: "CREATING", source_revision_config: { repo_ref: "feature/wip" } });

  for (const load of Seeded.loaders) await load();
  expect((await getDeployment()).latest_revision_id).toBe(seeded.latest_revision_id);
});
