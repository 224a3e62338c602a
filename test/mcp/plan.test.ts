// A plan before a change, with the SDK's client against the simulator: deploy and rollback with
// dry_run answer the plan and change nothing; a client that supports elicitation is asked to confirm
// a change (declined: nothing is sent; accepted: it is), unless the server was created with
// confirmChanges false (dms mcp --yes); a client without elicitation is not asked (the annotations
// are its only signal). The plan is the client's planDeploy/planRollback.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { type ElicitRequest, ElicitRequestSchema, type ElicitResult } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { createDeploymentsClient, type DeploymentsClient } from "../../src/client/client.js";
import { planDeploy, planRollback } from "../../src/client/plan.js";
import { createMcpServer } from "../../src/mcp/index.js";
import { createSimulator, SEED_IDS } from "../../src/simulator/core/index.js";
import { API_KEY, textOf } from "./support.js";

const DEPLOYMENT = SEED_IDS.deployment_id;

interface Setup {
  /** How the client answers a confirmation; undefined: the client has no elicitation capability. */
  answer?: (request: ElicitRequest) => ElicitResult;
  confirmChanges?: boolean;
}

async function connect(setup: Setup) {
  const sim = createSimulator({ stepSeconds: 0.01 });
  const client = createDeploymentsClient({ baseUrl: "https://api.example.test", apiKey: API_KEY, fetch: sim.fetch, retry: { retries: 0 } });
  const server = createMcpServer({
    client,
    pollIntervalMs: 5,
    redact: [API_KEY],
    ...(setup.confirmChanges === undefined ? {} : { confirmChanges: setup.confirmChanges }),
  });
  const asked: ElicitRequest[] = [];
  const mcp = new Client({ name: "dms-plan-test", version: "1.0.0" }, { capabilities: setup.answer ? { elicitation: {} } : {} });
  if (setup.answer) {
    const answer = setup.answer;
    mcp.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request);
      return answer(request);
    });
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), mcp.connect(clientSide)]);
  await mcp.listTools();
  return { client, mcp, asked, close: () => mcp.close() };
}

/** The deployment's revision count and latest revision: what a change would move. */
async function revisionState(client: DeploymentsClient): Promise<{ count: number; latest: string | null }> {
  const { data } = await client.GET("/v2/deployments/{deployment_id}/revisions", { params: { path: { deployment_id: DEPLOYMENT }, query: { limit: 100 } } });
  const { data: deployment } = await client.GET("/v2/deployments/{deployment_id}", { params: { path: { deployment_id: DEPLOYMENT } } });
  return { count: data!.resources.length, latest: deployment!.latest_revision_id };
}

const accept = (): ElicitResult => ({ action: "accept", content: { confirm: true } });
const decline = (): ElicitResult => ({ action: "decline" });
const SECRET = "sk-plan-test-secret-value";
const deployArgs = { deployment_id: DEPLOYMENT, source_revision_config: { repo_ref: "release/plan" }, secrets: [{ name: "OPENAI_API_KEY", value: SECRET }] };

describe("dry_run", () => {
  it("deploy with dry_run answers the client's plan, asks nothing and sends nothing", async () => {
    const { client, mcp, asked, close } = await connect({ answer: accept });
    try {
      const before = await revisionState(client);
      const result = await mcp.callTool({ name: "deploy", arguments: { ...deployArgs, dry_run: true } });
      expect(result.isError, textOf(result)).toBeFalsy();
      const { dry_run, plan } = result.structuredContent as { dry_run: boolean; plan: Record<string, any> };
      expect(dry_run).toBe(true);
      const expected = await planDeploy(client, DEPLOYMENT, {
        source_revision_config: { repo_ref: "release/plan" },
        secrets: [{ name: "OPENAI_API_KEY", value: "***" }],
      });
      expect(plan).toEqual(expected);
      expect(JSON.stringify(result)).not.toContain(SECRET);
      expect(asked).toEqual([]);
      expect(await revisionState(client)).toEqual(before);
    } finally {
      await close();
    }
  });

  it("rollback with dry_run answers the target and the patch; nothing is sent", async () => {
    const { client, mcp, close } = await connect({});
    try {
      const before = await revisionState(client);
      const result = await mcp.callTool({ name: "rollback", arguments: { deployment_id: DEPLOYMENT, dry_run: true } });
      expect(result.isError, textOf(result)).toBeFalsy();
      const { plan } = result.structuredContent as { plan: Record<string, any> };
      expect(plan).toEqual(await planRollback(client, DEPLOYMENT));
      expect(plan.target_revision_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(await revisionState(client)).toEqual(before);
    } finally {
      await close();
    }
  });
});

describe("confirmation (elicitation)", () => {
  it("a declined confirmation sends nothing; the question showed the plan with the secret masked", async () => {
    const { client, mcp, asked, close } = await connect({ answer: decline });
    try {
      const before = await revisionState(client);
      const result = await mcp.callTool({ name: "deploy", arguments: deployArgs });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain("deploy: not confirmed, nothing was sent");
      expect(await revisionState(client)).toEqual(before);
      expect(asked).toHaveLength(1);
      const message = asked[0]!.params.message;
      expect(message).toContain(`PATCH /v2/deployments/${DEPLOYMENT}`);
      expect(message).toContain('"repo_ref":"release/plan"');
      expect(message + textOf(result)).not.toContain(SECRET);
      // Accepted with the box left unticked is no too.
      const unticked = await connect({ answer: () => ({ action: "accept", content: { confirm: false } }) });
      try {
        const untouched = await revisionState(unticked.client);
        const declined = await unticked.mcp.callTool({ name: "rollback", arguments: { deployment_id: DEPLOYMENT } });
        expect(textOf(declined)).toContain("rollback: not confirmed, nothing was sent");
        expect(await revisionState(unticked.client)).toEqual(untouched);
        expect(unticked.asked).toHaveLength(1);
      } finally {
        await unticked.close();
      }
    } finally {
      await close();
    }
  });

  it("an accepted confirmation sends the planned patch", async () => {
    const { client, mcp, asked, close } = await connect({ answer: accept });
    try {
      const before = await revisionState(client);
      const result = await mcp.callTool({ name: "rollback", arguments: { deployment_id: DEPLOYMENT } });
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(asked).toHaveLength(1);
      const after = await revisionState(client);
      expect(after.count).toBe(before.count + 1);
      expect((result.structuredContent as { revision_id: string }).revision_id).toBe(after.latest);
    } finally {
      await close();
    }
  });

  it("is not asked of a client without elicitation, nor with confirmChanges false (dms mcp --yes)", async () => {
    for (const setup of [{}, { answer: decline, confirmChanges: false }] satisfies Setup[]) {
      const { client, mcp, asked, close } = await connect(setup);
      try {
        const before = await revisionState(client);
        const result = await mcp.callTool({
          name: "deploy",
          arguments: { deployment_id: DEPLOYMENT, source_revision_config: { repo_ref: "main" }, wait: false },
        });
        expect(result.isError, textOf(result)).toBeFalsy();
        expect(asked).toEqual([]);
        expect((await revisionState(client)).count).toBe(before.count + 1);
      } finally {
        await close();
      }
    }
  });
});
