// Organisation keys: the simulator's keys can be scoped to the organisation (every request must name
// its workspace in X-Tenant-Id, else the service's 403 "requires workspace specification") or to
// one workspace (requests act in it; naming another is 403). The 403 is then advice in each
// surface's terms: the client's ApiError names the tenantId option, dms names --tenant-id and
// DMS_TENANT_ID, the MCP server names DMS_TENANT_ID. Each fails on a simulator without key scopes.
import { Client as McpClient } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError, createDeploymentsClient, unwrap } from "../../src/index.js";
import { createMcpServer } from "../../src/mcp/index.js";
import { createSimulator } from "../../src/simulator/core/simulator.js";
import { SEED_IDS } from "../../src/simulator/core/seed.js";
import { startSimulator, type RunningSimulator } from "../../src/simulator/node/index.js";
import { dmsInProcess } from "../cli/support.js";

const BASE = "https://api.example.test";
const TENANT = SEED_IDS.tenant_id as string;
const OTHER = "00000000-0000-4000-8000-0000000000aa";
const get = (sim: { fetch: typeof fetch }, path: string, headers: Record<string, string> = {}) =>
  sim.fetch(`${BASE}${path}`, { headers: { "x-api-key": "org-key", ...headers } });

describe("an organisation key", () => {
  const sim = createSimulator({ apiKeys: [{ key: "org-key", scope: "organization" }, "plain-key"] });

  it("without X-Tenant-Id: 403 with the service's words, for every operation of the API", async () => {
    for (const path of ["/v2/deployments", `/v2/deployments/${SEED_IDS.deployment_id}`, "/v2/listeners", "/v2/auth/providers"]) {
      const response = await get(sim, path);
      expect(response.status, path).toBe(403);
      expect((await response.json()).detail, path).toContain("requires workspace specification");
    }
  });

  it("with X-Tenant-Id: that workspace's resources, as a plain key with the header sees them", async () => {
    const scoped = await (await get(sim, "/v2/deployments?limit=100", { "x-tenant-id": TENANT })).json();
    expect(scoped.resources.length).toBeGreaterThan(0);
    for (const d of scoped.resources) expect(d.tenant_id).toBe(TENANT);
    const plain = await (await sim.fetch(`${BASE}/v2/deployments?limit=100`, { headers: { "x-api-key": "plain-key", "x-tenant-id": TENANT } })).json();
    expect(scoped).toEqual(plain);
  });

  it("keyScope makes every key an organisation key, also when apiKeys is not given", async () => {
    const any = createSimulator({ keyScope: "organization" });
    expect((await any.fetch(`${BASE}/v2/deployments`, { headers: { "x-api-key": "whatever" } })).status).toBe(403);
  });
});

describe("a workspace key", () => {
  const sim = createSimulator({ apiKeys: [{ key: "org-key", scope: { tenantId: TENANT } }] });

  it("acts in its workspace without X-Tenant-Id, and is refused another", async () => {
    const own = await (await get(sim, "/v2/deployments?limit=100")).json();
    for (const d of own.resources) expect(d.tenant_id).toBe(TENANT);
    const other = await get(sim, "/v2/deployments", { "x-tenant-id": OTHER });
    expect(other.status).toBe(403);
    expect((await other.json()).detail).toContain(`scoped to workspace ${TENANT}`);
  });
});

describe("the options and the flag are checked", () => {
  it.each([
    [{ keyScope: "org" }, /keyScope must be "any", "organization" or \{ tenantId/],
    [{ keyScope: { tenantId: "nope" } }, /keyScope must be/],
    [{ apiKeys: [{ key: "k", scope: "everyone" }] }, /apiKeys\[0\]\.scope must be/],
    [{ apiKeys: [{ key: "", scope: "any" }] }, /apiKeys\[0\]\.key/],
  ])("%j is refused", (options, message) => {
    expect(() => createSimulator(options as never)).toThrow(message);
  });
});

describe("over HTTP, from startSimulator (what --key-scope organization gives)", () => {
  let running: RunningSimulator;
  beforeAll(async () => {
    running = await startSimulator({ port: 0, quiet: true, keyScope: "organization" });
  });
  afterAll(() => running?.close());

  it("the 403 over HTTP", async () => {
    const response = await fetch(`${running.url}/v2/deployments`, { headers: { "x-api-key": "k" } });
    expect(response.status).toBe(403);
  });

  it("dms: the 403 with advice naming --tenant-id and DMS_TENANT_ID; with DMS_TENANT_ID it works", async () => {
    const env = { DMS_BASE_URL: running.url, DMS_API_KEY: "k" };
    const refused = await dmsInProcess(["deployments"], env);
    expect(refused.code).toBe(6);
    expect(refused.stderr).toContain("requires workspace specification");
    expect(refused.stderr).toContain("--tenant-id (or DMS_TENANT_ID)");
    const deploy = await dmsInProcess(["deploy", SEED_IDS.deployment_id as string, "--ref", "main", "--no-wait", "--json"], env);
    expect(deploy.code).toBe(6);
    expect(deploy.stdout).toContain('"hint":"the API key is scoped to the organisation');
    const named = await dmsInProcess(["deployments"], { ...env, DMS_TENANT_ID: TENANT });
    expect(named.code, named.stderr).toBe(0);
  });
});

describe("the client and the MCP server turn the 403 into advice", () => {
  const sim = createSimulator({ keyScope: "organization" });

  it("ApiError.hint names the tenantId option; with tenantId the call works", async () => {
    const client = createDeploymentsClient({ baseUrl: BASE, apiKey: "k", fetch: sim.fetch });
    const error = await client
      .GET("/v2/deployments")
      .then(unwrap, (e: unknown) => e)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(403);
    expect((error as ApiError).hint).toContain("the client's tenantId option");
    expect((error as ApiError).message).toContain("tenantId option");
    const named = createDeploymentsClient({ baseUrl: BASE, apiKey: "k", tenantId: TENANT, fetch: sim.fetch });
    expect(unwrap(await named.GET("/v2/deployments")).resources.length).toBeGreaterThan(0);
  });

  it("the same hint from the service's own shape", async () => {
    const service = createSimulator({ keyScope: "organization", errors: "service" });
    const client = createDeploymentsClient({ baseUrl: BASE, apiKey: "k", fetch: service.fetch });
    const error = await client
      .GET("/v2/deployments")
      .then(unwrap, (e: unknown) => e)
      .catch((e: unknown) => e);
    expect((error as ApiError).hint).toContain("tenantId option");
  });

  it("the MCP server's tool result names DMS_TENANT_ID", async () => {
    const client = createDeploymentsClient({ baseUrl: BASE, apiKey: "k", fetch: sim.fetch, retry: { retries: 0 } });
    const server = createMcpServer({ client, pollIntervalMs: 5 });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const mcp = new McpClient({ name: "org-key-test", version: "1" });
    await server.connect(serverSide);
    await mcp.connect(clientSide);
    try {
      const result = await mcp.callTool({ name: "list_deployments", arguments: {} });
      expect(result.isError).toBe(true);
      const text = (result.content as { type: string; text: string }[])[0]!.text;
      expect(text).toContain("requires workspace specification");
      expect(text).toContain("DMS_TENANT_ID");
    } finally {
      await mcp.close();
      await server.close();
    }
  });
});
