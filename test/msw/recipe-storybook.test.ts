// The Storybook recipe's stories (test/check/storybook/DeploymentCard.stories.tsx, which
// docs/react-and-testing.md shows) without a browser: msw/node stands in for the addon's service
// worker and serves the same parameters.msw.handlers, so the component's client (on the global fetch)
// reads the state each story's loader set up. test/check/storybook/storybook.test.ts builds the same
// stories with `storybook build` and opens them in Chromium.
import { setupServer } from "msw/node";
import { afterAll, beforeAll, expect, test } from "vitest";
import { type DeploymentsClient, unwrap } from "../../src/index.js";
import { SEED_IDS } from "../../src/simulator/node/index.js";

// Imported by a path the type checker does not follow: Storybook's types are checked with
// test/check/storybook/tsconfig.json (their .d.ts files do not pass this project's library check).
interface Story {
  loaders?: (() => Promise<unknown>)[];
}
interface StoriesModule {
  default: { args: { client: DeploymentsClient }; parameters: { msw: { handlers: Parameters<typeof setupServer> } } };
  Deployed: Story;
  Deploying: Story;
}
const STORIES = "../check/storybook/DeploymentCard.stories.js";
const { default: meta, Deployed, Deploying } = (await import(/* @vite-ignore */ STORIES)) as StoriesModule;

const server = setupServer(...meta.parameters.msw.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());

const component = meta.args.client;
const getDeployment = async () =>
  unwrap(await component.GET("/v2/deployments/{deployment_id}", { params: { path: { deployment_id: SEED_IDS.deployment_id } } }));

async function load(story: Story): Promise<void> {
  for (const loader of story.loaders ?? []) await loader();
}

test("the Deploying story's loader leaves a revision in progress that the component then reads through MSW; Deployed resets it", async () => {
  await load(Deployed);
  const seeded = await getDeployment();
  await load(Deploying);
  const deploying = await getDeployment();
  expect(deploying.latest_revision_id).not.toBe(seeded.latest_revision_id);
  const revision = unwrap(
    await component.GET("/v2/deployments/{deployment_id}/revisions/{revision_id}", {
      params: { path: { deployment_id: SEED_IDS.deployment_id, revision_id: deploying.latest_revision_id! } },
    }),
  );
  expect(revision).toMatchObject({ status: "CREATING", source_revision_config: { repo_ref: "feature/wip" } });

  await load(Deployed);
  expect((await getDeployment()).latest_revision_id).toBe(seeded.latest_revision_id);
});
