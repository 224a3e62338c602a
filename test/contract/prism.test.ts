// The contract suite against the mock that `npm start` serves: Prism behind its problem+json front,
// started in-process on a random port.
import { afterAll } from "vitest";
import { startPrism, type RunningPrism } from "../support/prism.js";
import { defineContractSuite } from "./suite.js";

let mock: RunningPrism | undefined;
afterAll(async () => {
  await mock?.close();
});

defineContractSuite("contract: Prism mock (npm start)", async () => {
  mock = await startPrism({ front: true });
  return { baseUrl: mock.baseUrl, apiKey: "dev", allowPatch: true, strictErrors: true, label: mock.baseUrl };
});
