// @vitest-environment jsdom
// The Vitest + MSW + Testing Library recipe of docs/react-and-testing.md, run as it is written
// (test/recipes/docs.test.ts checks the page shows the region below): a React component rendered in
// jsdom, its requests answered by the simulator through MSW, fake timers for its polling and
// `sim.advance` for the simulated clock, retries off for the error state.
// #region readme
import { cleanup, render, screen } from "@testing-library/react";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, expect, test, vi } from "vitest";
import { createDeploymentsClient, unwrap } from "../../src/index.js";
import { simulatorHandlers } from "../../src/msw.js";
import { createSimulator, SEED_IDS } from "../../src/simulator/node/index.js";
import { DeploymentCard } from "./DeploymentCard.js";

const baseUrl = "https://api.example.test";
const sim = createSimulator({ stepSeconds: 2 });
const server = setupServer(...simulatorHandlers(sim, { baseUrl }));
// Retries off in tests: an error state shows after one answer, not after 1 + 3 attempts and their back-off.
const client = createDeploymentsClient({ baseUrl, apiKey: "test", retry: { retries: 0 } });
const deploymentId = SEED_IDS.deployment_id;

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(async () => {
  cleanup();
  vi.useRealTimers();
  server.events.removeAllListeners();
  await sim.reset(); // every test starts from the seed, with no latency and no faults
});
afterAll(() => server.close());

test("shows a loading state, then the deployment and its latest revision", async () => {
  render(<DeploymentCard client={client} deploymentId={deploymentId} />);
  expect(screen.getByRole("status").textContent).toBe("Loading…");
  const card = await screen.findByRole("region");
  expect(card.textContent).toContain("DEPLOYED");
});

test("shows the loading state for as long as the simulator's latency", async () => {
  vi.useFakeTimers();
  await sim.setLatency(1000); // every answer takes a second of (fake) time
  render(<DeploymentCard client={client} deploymentId={deploymentId} />);
  await vi.advanceTimersByTimeAsync(1500); // the deployment has arrived, its revision not yet
  expect(screen.getByRole("status").textContent).toBe("Loading…");
  await vi.advanceTimersByTimeAsync(500);
  await vi.waitFor(() => expect(screen.getByRole("region").textContent).toContain("DEPLOYED"));
});

test("follows a new revision to DEPLOYED: fake timers run the polling, sim.advance the simulated clock", async () => {
  // Date is faked too, so the simulator's clock stands still until sim.advance moves it.
  vi.useFakeTimers();
  const patched = unwrap(
    await client.PATCH("/v2/deployments/{deployment_id}", {
      params: { path: { deployment_id: deploymentId } },
      body: { source_revision_config: { repo_ref: "feature/card" } },
    }),
  );
  render(<DeploymentCard client={client} deploymentId={deploymentId} pollMs={5000} />);
  await vi.waitFor(() => expect(screen.getByRole("region").textContent).toContain(`${patched.latest_revision_id}: CREATING`));

  await sim.advance(60); // a minute of simulated time: the revision goes through every state
  await vi.advanceTimersByTimeAsync(5000); // the component's next poll, without waiting 5 s
  await vi.waitFor(() => expect(screen.getByRole("region").textContent).toContain(`${patched.latest_revision_id}: DEPLOYED`));
});

test("shows the error state after a single 503: retries are off", async () => {
  let requests = 0;
  server.events.on("request:start", () => requests++);
  await sim.injectFault({ operation: "getDeployment", fault: 503 }); // the next GET of a deployment fails
  render(<DeploymentCard client={client} deploymentId={deploymentId} />);
  const alert = await screen.findByRole("alert");
  expect(alert.textContent).toMatch(/503/);
  expect(requests).toBe(1); // with retries on, the second attempt would have shown the deployment
});
// #endregion readme
