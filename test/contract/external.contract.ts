// `npm run test:contract`: the contract suite against a server you run yourself.
//   CONTRACT_BASE_URL    the server, e.g. http://127.0.0.1:8080 (required)
//   CONTRACT_API_KEY     sent as X-Api-Key (required)
//   CONTRACT_TENANT_ID   sent as X-Tenant-Id (optional)
//   CONTRACT_ALLOW_PATCH=1   also run the PATCH cases (valid patches change your data)
//   CONTRACT_STRICT_ERRORS=1 also require 422, the documented problem kind, and an `errors` entry naming the broken field with its code
//   CONTRACT_DEPLOYMENT_ID, CONTRACT_REVISION_ID, CONTRACT_LISTENER_ID, CONTRACT_PROVIDER_ID,
//   CONTRACT_AGENT_ID, CONTRACT_SCM_INTEGRATION_ID, CONTRACT_FORGE_INTEGRATION_ID  ids to use
//   (default: found through the list endpoints, else the document's example values)
// This file is not matched by `npm test` (vitest.config.ts takes *.test.ts only).
import { describe, it } from "vitest";
import { defineContractSuite, type IdName } from "./suite.js";

const env = process.env;
const ID_NAMES: IdName[] = ["deployment_id", "revision_id", "listener_id", "provider_id", "agent_id", "scm_integration_id", "forge_integration_id"];

if (!env.CONTRACT_BASE_URL || !env.CONTRACT_API_KEY) {
  describe("contract suite against your server", () => {
    it.skip("set CONTRACT_BASE_URL and CONTRACT_API_KEY to run it, e.g. CONTRACT_BASE_URL=http://127.0.0.1:8080 CONTRACT_API_KEY=dev npm run test:contract", () => {});
  });
  console.warn("contract suite skipped: set CONTRACT_BASE_URL and CONTRACT_API_KEY (and CONTRACT_ALLOW_PATCH=1 for the PATCH cases)");
} else {
  const ids: Partial<Record<IdName, string>> = {};
  for (const name of ID_NAMES) {
    const value = env[`CONTRACT_${name.toUpperCase()}`];
    if (value) ids[name] = value;
  }
  defineContractSuite(`contract: ${env.CONTRACT_BASE_URL}`, () => ({
    baseUrl: env.CONTRACT_BASE_URL!,
    apiKey: env.CONTRACT_API_KEY!,
    ...(env.CONTRACT_TENANT_ID ? { tenantId: env.CONTRACT_TENANT_ID } : {}),
    allowPatch: env.CONTRACT_ALLOW_PATCH === "1",
    strictErrors: env.CONTRACT_STRICT_ERRORS === "1",
    ids,
    label: env.CONTRACT_ALLOW_PATCH === "1" ? "read-only and PATCH cases" : "read-only cases",
  }));
}
