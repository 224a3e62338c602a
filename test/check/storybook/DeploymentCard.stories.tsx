// The Storybook recipe of docs/react-and-testing.md (test/recipes/docs.test.ts checks the page shows
// the region below); test/check/storybook/storybook.test.ts builds it with `storybook build` and opens its
// stories in Chromium. The package is imported by its name, as a project does: Vite resolves it to
// this repository's built dist/ through package.json "exports" (the "browser" condition picks the
// simulator's core), so the build checks the entries a consumer gets.
// #region readme
// DeploymentCard.stories.tsx: the addon serves parameters.msw to the stories; the simulator answers.
import type { Meta, StoryObj } from "@storybook/react-vite";
import { createDeploymentsClient } from "deployment-management-api";
import { simulatorHandlers } from "deployment-management-api/msw";
import { createSimulator, SEED_IDS } from "deployment-management-api/simulator";
import { DeploymentCard } from "../../recipes/DeploymentCard.js";

const baseUrl = "https://api.example.test";
const sim = createSimulator({ stepSeconds: 2 });
// The component's client calls the global fetch, which the addon's service worker hands to the simulator.
const client = createDeploymentsClient({ baseUrl, apiKey: "storybook", retry: { retries: 0 } });
// Setting up a story's state talks to the simulator directly, not through the worker.
const setup = createDeploymentsClient({ baseUrl, apiKey: "storybook", fetch: sim.fetch });

const meta = {
  title: "Deployments/Card",
  component: DeploymentCard,
  args: { client, deploymentId: SEED_IDS.deployment_id },
  argTypes: { client: { control: false } },
  parameters: { msw: { handlers: simulatorHandlers(sim, { baseUrl }) } },
} satisfies Meta<typeof DeploymentCard>;
export default meta;
type Story = StoryObj<typeof meta>;

export const Deployed: Story = { loaders: [() => sim.reset()] };

// Opens on a revision on its way: the loader patches before the story renders.
export const Deploying: Story = {
  loaders: [
    async () => {
      await sim.reset();
      await setup.PATCH("/v2/deployments/{deployment_id}", {
        params: { path: { deployment_id: SEED_IDS.deployment_id } },
        body: { source_revision_config: { repo_ref: "feature/wip" } },
      });
    },
  ],
};

// Loading and error states, from the simulator's latency and faults: no hand-written handlers.
export const Loading: Story = {
  loaders: [
    async () => {
      await sim.reset(); // also takes the latency and the faults of the story before away
      await sim.setLatency(60_000); // a minute before each answer
    },
  ],
};

export const Unavailable: Story = {
  loaders: [
    async () => {
      await sim.reset();
      await sim.injectFault({ operation: "getDeployment", fault: 503 }); // the next GET of a deployment fails
    },
  ],
};

export const NotFound: Story = {
  args: { deploymentId: "00000000-0000-4000-8000-000000000000" },
  loaders: [() => sim.reset()],
};
// #endregion readme
