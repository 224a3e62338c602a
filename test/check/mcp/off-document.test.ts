// A service that answers off the document (a field missing, a status outside its enum, a list item
// that is not an object): the MCP server gives the agent the data as JSON text in an error result,
// never structured content that the SDK's client would refuse whole (-32602, "Structured content
// does not match the tool's output schema"), and says why. Real HTTP to a local server, the MCP
// client in memory; the SDK's own client does the checking an agent's client does.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDeploymentsClient } from "../../../src/client/client.js";
import { createMcpServer } from "../../../src/mcp/index.js";
import { sendJson, sendText, startLocalServer, type LocalServer } from "../../client/local-server.js";
import { textOf } from "../../mcp/support.js";

const DEPLOYMENT = "6b0d8a52-3c1e-4f7a-9b2d-1e5f3a7c9d01";
const REVISION = "0c6b5e0a-7f6d-4b1e-8a47-3d2f1c9e8b70";
const SECRET = "sk-off-document-secret";

/** Each tool call and the off-document body the service answers it with (text: sent as it is). */
/** 5000 levels of arrays: 10 kB of JSON, and past where recursion and JSON.stringify give out. */
const DEEP = `${"[".repeat(5000)}${"]".repeat(5000)}`;
const DEEP_DEPLOYMENT = "7b0d8a52-3c1e-4f7a-9b2d-1e5f3a7c9d01";

const CASES: [string, Record<string, unknown>, string, unknown][] = [
  ["get_deployment", { deployment_id: DEEP_DEPLOYMENT }, `/v2/deployments/${DEEP_DEPLOYMENT}`, `{"id":"${DEEP_DEPLOYMENT}","source_config":${DEEP}}`],
  ["get_deployment", { deployment_id: DEPLOYMENT }, `/v2/deployments/${DEPLOYMENT}`, { id: DEPLOYMENT, secrets: [{ name: "K", value: SECRET }] }],
  [
    "get_revision",
    { deployment_id: DEPLOYMENT, revision_id: REVISION },
    `/v2/deployments/${DEPLOYMENT}/revisions/${REVISION}`,
    { id: REVISION, status: "EXPLODED" },
  ],
  ["list_deployments", {}, "/v2/deployments", { resources: ["not an object", { id: 7 }], offset: 2 }],
  ["list_revisions", { deployment_id: DEPLOYMENT }, `/v2/deployments/${DEPLOYMENT}/revisions`, { resources: [{ id: REVISION }], offset: "one" }],
];

let server: LocalServer;
let mcp: Client;

beforeAll(async () => {
  const bodies = new Map(CASES.map(([, , path, body]) => [path, body]));
  server = await startLocalServer((req, res) => {
    const body = bodies.get(req.url.pathname);
    if (body === undefined) return sendJson(res, 404, { title: "Not Found", status: 404 });
    // A body given as text is sent as it is (JSON.stringify cannot write one nested that deep).
    if (typeof body === "string") return sendText(res, 200, body, "application/json");
    sendJson(res, 200, body);
  });
  const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "off-document-key", retry: { retries: 0 } });
  const mcpServer = createMcpServer({ client, pollIntervalMs: 5, redact: ["off-document-key"] });
  mcp = new Client({ name: "dms-off-document-test", version: "1.0.0" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([mcpServer.connect(serverSide), mcp.connect(clientSide)]);
  // The client learns the output schemas it checks results against.
  await mcp.listTools();
});
afterAll(async () => {
  await mcp?.close();
  await server?.close();
});

describe("an answer off the document reaches the agent as text, not as a protocol error", () => {
  it.each(CASES)("%s", async (tool, args) => {
    const result = await mcp.callTool({ name: tool, arguments: args });
    const text = textOf(result);
    // Either the client's own paging check refused the page (an error result), or the data is given as JSON text.
    expect(result.isError, text).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    if (args.deployment_id === DEEP_DEPLOYMENT) {
      expect(text).toMatch(/nests objects and arrays more than 100 levels deep/);
      expect(text).not.toMatch(/Maximum call stack|at Masker/);
    } else if (!text.includes("Invalid response body")) {
      expect(text).toMatch(new RegExp(`^${tool}: the service's answer does not match the document \\(.+\\), so it is given as JSON text`, "m"));
      const json = (result.content as { text: string }[]).at(-1)!.text;
      expect(() => JSON.parse(json)).not.toThrow();
    }
    // Secret values are masked by structure in the text as in structured content.
    expect(text).not.toContain(SECRET);
  });
});
