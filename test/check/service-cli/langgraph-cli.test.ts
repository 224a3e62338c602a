// A real client of the service against the simulator: the host-backend client of the service's own
// JavaScript CLI (@langchain/langgraph-cli, pinned devDependency), imported from node_modules and run
// unmodified, given only the simulator's base URL and a key. It lists deployments and revisions,
// patches an internal_docker deployment with a new image and polls the revision to DEPLOYED (the
// CLI's own terminal states), sees a build failure set with fail-next end BUILD_FAILED, gets the
// revision_source refusal its deploy command looks for ("only available for 'internal_docker'
// source deployments"), and the 403 its tenant prompt looks for ("requires workspace
// specification"). Each runs against both error shapes, problem+json and errors: "service".
//
// Where its requests leave the interface, the test says so and does not count them: creating a
// deployment (POST /v2/deployments), the push token and upload URL (POST .../push-token,
// .../upload-url), build and deploy logs (POST /v1/projects/...), and the remote-build patch, whose
// `langgraph_config_path` is the interface's `graph_config_path` under another name.
// In the check lane: the package weighs about 96 MB and 142 packages in node_modules.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type RunningSimulator } from "../../../src/simulator/node/index.js";
import { SEED_IDS } from "../../../src/simulator/core/seed.js";

interface HostBackendError extends Error {
  statusCode: number | undefined;
}
interface HostBackendClient {
  baseUrl: string;
  setTenantId(tenantId: string): void;
  listDeployments(nameContains?: string): Promise<any>;
  getDeployment(id: string): Promise<any>;
  updateDeployment(id: string, imageUri: string, args?: { secrets?: unknown }): Promise<any>;
  updateDeploymentInternalSource(id: string, args: { sourceTarballPath: string; configPath: string }): Promise<any>;
  listRevisions(id: string, limit?: number): Promise<any>;
  getRevision(id: string, revisionId: string): Promise<any>;
  createDeployment(args: { name: string; deploymentType: string; source: string }): Promise<any>;
  requestPushToken(id: string): Promise<any>;
  requestUploadUrl(id: string): Promise<any>;
  getBuildLogs(projectId: string, revisionId: string, payload: unknown): Promise<any>;
}
interface HostBackendModule {
  HostBackendClient: new (baseUrl: string, apiKey: string, tenantId?: string) => HostBackendClient;
  HostBackendError: new (message: string, statusCode?: number) => HostBackendError;
}
interface DeployHelpers {
  TERMINAL_STATUSES: Set<string>;
  findDeploymentIdByName(response: unknown, name: string): string | null;
  formatRevisionsTable(revisions: unknown[]): string;
}

// The package has no exports map: its modules are imported by path, as they are shipped.
const packageRoot = dirname(createRequire(import.meta.url).resolve("@langchain/langgraph-cli/package.json"));
const load = async <T>(file: string): Promise<T> => (await import(pathToFileURL(join(packageRoot, "dist/cli/utils", file)).href)) as T;
let backend: HostBackendModule;
let helpers: DeployHelpers;

beforeAll(async () => {
  backend = await load<HostBackendModule>("host-backend.mjs");
  helpers = await load<DeployHelpers>("deploy-helpers.mjs");
});

/** The CLI's poll (pollRevisionStatus): the newest revision, read until one of the CLI's terminal states. */
async function pollNewestRevision(client: HostBackendClient, deploymentId: string): Promise<{ id: string; statuses: string[] }> {
  const newest = (await client.listRevisions(deploymentId, 1)).resources[0];
  const statuses: string[] = [];
  for (let i = 0; i < 2000; i++) {
    const { status } = await client.getRevision(deploymentId, newest.id);
    if (statuses.at(-1) !== status) statuses.push(status);
    if (helpers.TERMINAL_STATUSES.has(status)) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return { id: newest.id, statuses };
}

async function failure(call: Promise<unknown>): Promise<HostBackendError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(backend.HostBackendError);
  return error as HostBackendError;
}

for (const errors of ["problem", "service"] as const) {
  describe(`the LangGraph CLI's host-backend client against the simulator (errors: "${errors}")`, () => {
    let running: RunningSimulator;
    let client: HostBackendClient;
    beforeAll(async () => {
      running = await startSimulator({ port: 0, quiet: true, stepSeconds: 0.02, errors });
      client = new backend.HostBackendClient(running.url, "a-langsmith-key");
    });
    afterAll(() => running?.close());

    // research-agent, the seeded internal_docker deployment the document's examples name.
    const internalDocker = () => "c5e9a2b7-1f3d-4a8c-b6e0-9d2f7a4c1e35";

    it("lists deployments, with the empty name filter it sends by default, and finds one by name as its deploy command does", async () => {
      const all = await client.listDeployments();
      expect(all.resources.length).toBeGreaterThan(0);
      const named = await client.listDeployments("research-agent");
      expect(helpers.findDeploymentIdByName(named, "research-agent")).toBe(internalDocker());
    });

    it("patches an internal_docker deployment with a new image and polls the revision it created to DEPLOYED", async () => {
      const id = internalDocker();
      const updated = await client.updateDeployment(id, "registry.example.com/research-agent@sha256:abc");
      const { id: revisionId, statuses } = await pollNewestRevision(client, id);
      expect(revisionId).toBe(updated.latest_revision_id);
      expect(statuses.at(-1)).toBe("DEPLOYED");
      const revision = await client.getRevision(id, revisionId);
      expect(revision).toMatchObject({ source: "internal_docker", source_revision_config: { image_uri: "registry.example.com/research-agent@sha256:abc" } });
      const table = helpers.formatRevisionsTable((await client.listRevisions(id, 10)).resources);
      expect(table).toContain(revisionId);
      expect((await client.getDeployment(id)).active_revision_id).toBe(revisionId);
    });

    it("a build failure set with fail-next ends BUILD_FAILED, one of the CLI's terminal states", async () => {
      const id = internalDocker();
      const set = await fetch(`${running.url}/_simulator/fail-next`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": "a-langsmith-key" },
        body: JSON.stringify({ deployment_id: id, status: "BUILD_FAILED" }),
      });
      expect(set.status).toBe(200);
      await client.updateDeployment(id, "registry.example.com/research-agent:broken");
      const { statuses } = await pollNewestRevision(client, id);
      expect(statuses.at(-1)).toBe("BUILD_FAILED");
      expect(statuses).toContain("BUILDING");
    });

    it("an image patch of a deployment of another source gets the 400 its deploy command looks for, and nothing changes", async () => {
      const id = SEED_IDS.deployment_id as string; // scm_host
      const before = await client.getDeployment(id);
      const error = await failure(client.updateDeployment(id, "registry.example.com/x:1"));
      expect(error.statusCode).toBe(400);
      // The condition of langgraph-cli's deploy.mjs, word for word.
      expect(error.message.includes("only available for 'internal_docker' source deployments")).toBe(true);
      expect(await client.getDeployment(id)).toEqual(before);
    });

    it("an organisation key without a workspace gets the 403 its tenant prompt looks for; setTenantId then works", async () => {
      const org = await startSimulator({ port: 0, quiet: true, keyScope: "organization", errors });
      try {
        const orgClient = new backend.HostBackendClient(org.url, "an-org-key");
        const error = await failure(orgClient.listDeployments("research-agent"));
        // The condition of langgraph-cli's callWithOptionalTenant, word for word.
        expect(error.statusCode === 403 && error.message.includes("requires workspace specification")).toBe(true);
        orgClient.setTenantId(SEED_IDS.tenant_id as string);
        expect(helpers.findDeploymentIdByName(await orgClient.listDeployments("research-agent"), "research-agent")).toBe(internalDocker());
      } finally {
        await org.close();
      }
    });

    it("not counted: its requests outside the interface are answered as unknown, and the simulator says so", async () => {
      const id = internalDocker();
      // Creating a deployment: the interface shows no create request. The route has GET only: 405.
      expect((await failure(client.createDeployment({ name: "new", deploymentType: "dev", source: "internal_docker" }))).statusCode).toBe(405);
      // Push token, upload URL, build logs: not in the interface.
      expect((await failure(client.requestPushToken(id))).statusCode).toBe(404);
      expect((await failure(client.requestUploadUrl(id))).statusCode).toBe(404);
      expect((await failure(client.getBuildLogs(id, "r", { order: "desc", limit: 30 }))).statusCode).toBe(404);
      // The remote-build patch names graph_config_path `langgraph_config_path`: refused as unknown (422).
      const internalSource = "e1d7b3a9-6c2f-4e5b-8a1d-3f9c7b2e4a60";
      const renamed = await failure(
        client.updateDeploymentInternalSource(internalSource, { sourceTarballPath: "uploads/x.tar.gz", configPath: "langgraph.json" }),
      );
      expect(renamed.statusCode).toBe(422);
      expect(renamed.message).toContain("langgraph_config_path");
    });
  });
}
