// ApiError and unwrap over real HTTP: the problem details, status, method and path of a failed call.
import { afterEach, describe, expect, it } from "vitest";
import { ApiError, createDeploymentsClient, unwrap } from "../../src/index.js";
import { type LocalServer, sendJson, startLocalServer } from "./local-server.js";
import { unwrapError } from "../support/unwrap-error.js";

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const DEPLOYMENT_ID = "7f1c2d4e-0000-4000-8000-000000000001";

describe("unwrap", () => {
  it("returns the data of a successful response", async () => {
    const deployment = { id: DEPLOYMENT_ID, name: "agent" };
    server = await startLocalServer((_req, res) => sendJson(res, 200, deployment));
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k" });
    const data = unwrap(await client.GET("/v2/deployments/{deployment_id}", { params: { path: { deployment_id: DEPLOYMENT_ID } } }));
    expect(data).toEqual(deployment);
  });

  it("throws an ApiError with the problem details, status, method and path of a 422", async () => {
    const problem = {
      type: "https://example.com/problems/validation",
      title: "Unprocessable Entity",
      status: 422,
      detail: "The request body is not valid.",
      instance: `/v2/deployments/${DEPLOYMENT_ID}`,
      errors: [{ pointer: "/source_revision_config/repo_ref", detail: "must be string" }],
    };
    server = await startLocalServer((_req, res) => sendJson(res, 422, problem));
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k", retry: { retries: 0 } });
    const result = await client.PATCH("/v2/deployments/{deployment_id}", {
      params: { path: { deployment_id: DEPLOYMENT_ID } },
      body: { source_revision_config: { repo_ref: "main" } },
    });
    const error = unwrapError(result);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("ApiError");
    expect(error).toMatchObject({
      status: 422,
      method: "PATCH",
      path: `/v2/deployments/${DEPLOYMENT_ID}`,
      type: problem.type,
      title: problem.title,
      detail: problem.detail,
      instance: problem.instance,
      errors: problem.errors,
      problem,
    });
    expect(error.message).toContain(`PATCH /v2/deployments/${DEPLOYMENT_ID} failed with 422`);
    expect(error.message).toContain("/source_revision_config/repo_ref must be string");
  });

  it("throws an ApiError for an error response whose body is not JSON", async () => {
    server = await startLocalServer((_req, res) => {
      res.writeHead(502, { "Content-Type": "text/plain" });
      res.end("bad gateway");
    });
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k", retry: { retries: 0 } });
    const result = await client.GET("/v2/listeners", { params: { query: { limit: 3 } } });
    expect(() => unwrap(result)).toThrow(ApiError);
    const error = unwrapError(result);
    expect(error).toMatchObject({ status: 502, method: "GET", path: "/v2/listeners", detail: "bad gateway", errors: [] });
    expect(error.problem).toBeUndefined();
  });

  it("throws an ApiError for an empty error response", async () => {
    server = await startLocalServer((_req, res) => {
      res.writeHead(401, { "Content-Length": "0" });
      res.end();
    });
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k" });
    const result = await client.GET("/v2/auth/providers");
    expect(() => unwrap(result)).toThrow(/GET \/v2\/auth\/providers failed with 401/);
  });
});
