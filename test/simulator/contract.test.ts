// The contract suite (derived from generated/openapi.json) against the stateful simulator, with
// PATCH cases and the strict error checks the simulator promises.
import { afterAll } from "vitest";
import { startSimulator, type RunningSimulator } from "../../src/simulator/node/index.js";
import { SEED_IDS } from "../../src/simulator/core/seed.js";
import { defineContractSuite } from "../contract/suite.js";

let simulator: RunningSimulator | undefined;
afterAll(async () => {
  await simulator?.close();
});

defineContractSuite("simulator", async () => {
  simulator = await startSimulator({ port: 0, quiet: true });
  return {
    baseUrl: simulator.url,
    apiKey: "contract-key",
    allowPatch: true,
    strictErrors: true,
    label: "src/simulator, seeded",
    ids: {
      deployment_id: SEED_IDS.deployment_id,
      revision_id: SEED_IDS.revision_id,
      listener_id: SEED_IDS.listener_id,
      provider_id: SEED_IDS.provider_id,
      agent_id: SEED_IDS.agent_id,
      scm_integration_id: SEED_IDS.scm_integration_id,
      forge_integration_id: SEED_IDS.forge_integration_id,
    },
  };
});
