// The MCP deploy tool follows the source table (src/shared/source-rules.ts): a patch field the
// deployment's source does not take is refused before anything is sent, the field named, and the
// deployment is unchanged. Spoken to with the MCP SDK's client, in memory, over the in-process simulator.
import { Client as McpClient } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { describe, expect, it } from "vitest";
import { createDeploymentsClient } from "../../src/client/client.js";
import { createMcpServer } from "../../src/mcp/index.js";
import { createSimulator } from "../../src/simulator/core/index.js";

const BASE = "https://api.example.test";
const INTERNAL_DOCKER = "c5e9a2b7-1f3d-4a8c-b6e0-9d2f7a4c1e35";

describe("the MCP deploy tool and the source table", () => {
  it("a repo_ref for an internal_docker deployment: isError naming the field, nothing sent", async () => {
    const sim = createSimulator({ stepSeconds: 3600 });
    const methods: string[] = [];
    const client = createDeploymentsClient({
      baseUrl: BASE,
      apiKey: "k",
      fetch: (request) => {
        methods.push(request.method);
        return sim.fetch(request);
      },
    });
    const server = createMcpServer({ client, pollIntervalMs: 5 });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const mcp = new McpClient({ name: "source-rules-test", version: "1" });
    await server.connect(serverSide);
    await mcp.connect(clientSide);
    try {
      const result = await mcp.callTool({ name: "deploy", arguments: { deployment_id: INTERNAL_DOCKER, source_revision_config: { repo_ref: "main" } } });
      expect(result.isError).toBe(true);
      const text = (result.content as { text: string }[])[0]!.text;
      expect(text).toContain("source_revision_config.repo_ref does not apply to internal_docker deployments");
      expect(text).toContain("nothing was sent");
      expect(methods).not.toContain("PATCH");
    } finally {
      await mcp.close();
      await server.close();
    }
  });
});
