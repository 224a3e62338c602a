// The whole contract suite against the simulator without a port: requests go straight to
// createSimulator().fetch. The ids are not given: the suite finds them through the list endpoints
// (the forge integration by probing which integration the forge path answers for).
import { createSimulator } from "../../src/simulator/node/index.js";
import { defineContractSuite } from "../contract/suite.js";

defineContractSuite("simulator in-process (createSimulator().fetch)", async () => {
  const simulator = createSimulator({ stepSeconds: 0.05 });
  await simulator.ready;
  return { fetch: simulator.fetch, apiKey: "contract-key", allowPatch: true, strictErrors: true, label: "createSimulator().fetch, ids discovered" };
});
