// A change whose outcome is unknown: the PATCH was sent and no complete answer came back (it timed
// out, its connection was cut, or its success was too large to read). dms and the MCP server say so in the same words
// (src/shared/unknown-outcome.ts), each naming how to check, and neither says to try again. One
// table, both surfaces, against a real HTTP server that answers the GET and fails the PATCH.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDeploymentsClient } from "../../src/client/client.js";
import { createMcpServer } from "../../src/mcp/index.js";
import { patchMayHaveBeenApplied } from "../../src/shared/unknown-outcome.js";
import { dms } from "../cli/support.js";
import { type LocalServer, sendJson, startLocalServer } from "../client/local-server.js";
import { textOf } from "./support.js";

const ID = "6b0d8a52-3c1e-4f7a-9b2d-1e5f3a7c9d01";
const KEY = "unknown-outcome-key";

/** How the PATCH fails: left hanging past the request timeout, or its connection cut. */
const FAILURES = {
  "times out": (res: import("node:http").ServerResponse) => void res,
  "has its connection cut": (res: import("node:http").ServerResponse) => res.socket?.destroy(),
  // Applied, and answered with success, but larger than the client reads (maxResponseBytes): the
  // revision it created is unknown to the caller all the same.
  "is answered 200 with a body too large to read": (res: import("node:http").ServerResponse) => {
    res.writeHead(200, { "content-type": "application/json", "content-length": String(2 ** 40) });
    res.flushHeaders();
  },
} as const;

const servers: Record<string, LocalServer> = {};
beforeAll(async () => {
  for (const [name, failPatch] of Object.entries(FAILURES)) {
    servers[name] = await startLocalServer((req, res) => {
      if (req.method === "GET") return sendJson(res, 200, { id: ID, latest_revision_id: null });
      failPatch(res);
    });
  }
});
afterAll(() => Promise.all(Object.values(servers).map((s) => s.close())));

describe.each(Object.keys(FAILURES))("a PATCH that %s", (name) => {
  it("dms deploy: exit 6, the patch may have been applied, check with dms revisions", async () => {
    const server = servers[name]!;
    const result = await dms(["deploy", ID, "--ref", "main", "--request-timeout", "300ms"], { DMS_BASE_URL: server.baseUrl, DMS_API_KEY: KEY });
    expect(result.code).toBe(6);
    expect(result.stderr).toContain(patchMayHaveBeenApplied("dms revisions"));
  });

  it("MCP deploy: an error result in the same words, naming list_revisions, and never 'try again'", async () => {
    const server = servers[name]!;
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: KEY, timeoutMs: 300 });
    const mcpServer = createMcpServer({ client, pollIntervalMs: 5 });
    const mcp = new Client({ name: "unknown-outcome-test", version: "1.0.0" });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await Promise.all([mcpServer.connect(serverSide), mcp.connect(clientSide)]);
    try {
      const result = await mcp.callTool({ name: "deploy", arguments: { deployment_id: ID, source_revision_config: { repo_ref: "main" } } });
      expect(result.isError).toBe(true);
      const text = textOf(result);
      expect(text).toContain(patchMayHaveBeenApplied("list_revisions"));
      expect(text).toContain("Do not call deploy again before checking");
      expect(text).not.toMatch(/trying again later may work/);
    } finally {
      await mcp.close();
    }
  });
});
