// simulatorHandlers' errors option: "service" answers the API's errors in the service's own FastAPI
// shapes (as createSimulator({ errors: "service" }) does), leaves successes and the control API as
// they are, and a value it does not know is refused when the handlers are made.
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { simulatorHandlers } from "../../src/msw.js";
import { createSimulator, SEED_IDS } from "../../src/simulator/node/index.js";

const BASE_URL = "https://service-shapes.example.test";
const sim = createSimulator();
const server = setupServer(...simulatorHandlers(sim, { baseUrl: BASE_URL, errors: "service" }));
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => server.close());
const headers = { "x-api-key": "k", "content-type": "application/json" };

describe('simulatorHandlers(sim, { errors: "service" })', () => {
  it("a 404 is {detail: text} as application/json", async () => {
    const response = await fetch(`${BASE_URL}/v2/deployments/00000000-0000-4000-8000-000000000000`, { headers });
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({ detail: "There is no deployment 00000000-0000-4000-8000-000000000000." });
  });

  it("a 422 is FastAPI's list, with loc, msg and type", async () => {
    const response = await fetch(`${BASE_URL}/v2/deployments/${SEED_IDS.deployment_id}`, {
      method: "PATCH",
      headers,
      body: JSON.stringify({ source_revision_config: { image_uri: "r/x:1" } }),
    });
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      detail: [{ loc: ["body", "source_revision_config", "image_uri"], msg: expect.stringContaining("does not apply to scm_host"), type: "not_for_source" }],
    });
  });

  it("a HEAD that is refused: its status and media type, no body (reading the empty body as JSON made MSW answer 500 with a stack)", async () => {
    const response = await fetch(`${BASE_URL}/v2/deployments/not-a-uuid`, { method: "HEAD", headers });
    expect(response.status).toBe(422);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await response.text()).toBe("");
  });

  it("successes and the control API are left as they are", async () => {
    expect((await fetch(`${BASE_URL}/v2/deployments?limit=1`, { headers })).status).toBe(200);
    const control = await fetch(`${BASE_URL}/_simulator/advance`, { method: "POST", headers, body: '{"seconds":-1}' });
    expect(control.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  });

  it("an errors value it does not know is refused", () => {
    expect(() => simulatorHandlers(sim, { baseUrl: BASE_URL, errors: "fastapi" as never })).toThrow(/errors must be "problem" or "service"/);
  });
});
