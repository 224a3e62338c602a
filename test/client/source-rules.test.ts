// The client's deploy and rollback helpers follow the source table (src/shared/source-rules.ts):
// a patch the deployment's source does not take throws SourceMismatchError naming each field, and
// no PATCH leaves the client (the requests are recorded on the way to an in-process simulator).
import { describe, expect, it } from "vitest";
import {
  createDeploymentsClient,
  deployRevision,
  planDeploy,
  planRollback,
  rollbackDeployment,
  SourceMismatchError,
  type Deployment,
  type Revision,
} from "../../src/index.js";
import { createSimulator } from "../../src/simulator/core/simulator.js";
import { sourceCases } from "../support/source-cases.js";

const BASE = "https://api.example.test";

function recordingClient(answer: (request: Request) => Promise<Response>) {
  const methods: string[] = [];
  const client = createDeploymentsClient({
    baseUrl: BASE,
    apiKey: "k",
    retry: { retries: 0 },
    fetch: (request) => {
      methods.push(request.method);
      return answer(request);
    },
  });
  return { client, methods };
}

describe("deployRevision and planDeploy check the patch against the deployment's source before sending", () => {
  const sim = createSimulator({ stepSeconds: 3600 });
  const refused = sourceCases().filter((c) => c.status !== 200);

  it.each(refused.map((c) => [c.name, c] as const))("%s: SourceMismatchError, no PATCH", async (_name, c) => {
    const { client, methods } = recordingClient((request) => sim.fetch(request));
    const page = await (await sim.fetch(`${BASE}/v2/deployments?limit=10`, { headers: { "x-api-key": "k" } })).json();
    const id = page.resources.find((d: Deployment) => d.source === c.source).id;
    const error = await deployRevision(client, id, c.patch).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceMismatchError);
    expect((error as SourceMismatchError).violations.map((v) => v.field)).toEqual([c.field.split("=")[0]]);
    expect((error as Error).message).toContain(c.field.split("=")[0]);
    await expect(planDeploy(client, id, c.patch)).rejects.toBeInstanceOf(SourceMismatchError);
    expect(methods).not.toContain("PATCH");
  });
});

describe("rollbackDeployment and planRollback", () => {
  it("refuse a target revision built from another source (the patch would carry a revision_source the deployment does not take)", async () => {
    const deployment = { id: "11111111-1111-4111-8111-111111111111", source: "internal_source", latest_revision_id: null, active_revision_id: null };
    const target: Partial<Revision> = {
      id: "22222222-2222-4222-8222-222222222222",
      status: "DEPLOYED",
      source: "internal_docker",
      source_revision_config: { image_uri: "r/x:1" },
    };
    const { client, methods } = recordingClient(async (request) => {
      const body = new URL(request.url).pathname.includes("/revisions/") ? target : deployment;
      return new Response(JSON.stringify(body), { headers: { "content-type": "application/json" } });
    });
    const error = await rollbackDeployment(client, deployment.id, { toRevisionId: target.id! }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceMismatchError);
    expect((error as SourceMismatchError).violations.map((v) => v.field)).toEqual(["revision_source", "source_revision_config.image_uri"]);
    await expect(planRollback(client, deployment.id, { toRevisionId: target.id! })).rejects.toBeInstanceOf(SourceMismatchError);
    expect(methods).not.toContain("PATCH");
  });
});
