// What the MCP server shows of the service's text (an error's words, a revision's state as progress,
// the plan a person is asked to confirm) is escaped by the one rule dms prints with
// (src/shared/terminal-text.ts): a client shows it in a terminal or a dialog, where an escape could
// drive the screen, a bidi control reorder a confirmation, a line break forge a field error. The
// same server answer gives dms and the MCP server the same escaped words. Real HTTP to a local
// server, the MCP client in memory.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { type ElicitRequest, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDeploymentsClient } from "../../src/client/client.js";
import { createMcpServer } from "../../src/mcp/index.js";
import { terminalSafe } from "../../src/shared/terminal-text.js";
import { dmsInProcess } from "../cli/support.js";
import { sendJson, startLocalServer, type LocalServer } from "../client/local-server.js";
import { textOf } from "./support.js";

const DEPLOYMENT = "6b0d8a52-3c1e-4f7a-9b2d-1e5f3a7c9d01";
const BEFORE = "0c6b5e0a-7f6d-4b1e-8a47-3d2f1c9e8b70";
const CREATED = "1c6b5e0a-7f6d-4b1e-8a47-3d2f1c9e8b70";
/** What no text shown to a person may hold raw: C0 (but the line breaks dms writes itself), DEL, C1, separators, bidi controls. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const HOSTILE = "evil\x1b]0;pwned\x07\x1b[2J\r\n- forged: field\u009b31m\u2028\u202Eexe.txt";

let server: LocalServer;
let revisionReads = 0;

beforeAll(async () => {
  server = await startLocalServer((req, res) => {
    const path = req.url.pathname;
    if (path === "/v2/deployments") {
      return sendJson(res, 422, { title: HOSTILE, status: 422, detail: HOSTILE, errors: [{ pointer: `/${HOSTILE}`, detail: HOSTILE }] });
    }
    if (path === `/v2/deployments/${DEPLOYMENT}/revisions/${CREATED}`) {
      revisionReads += 1;
      return sendJson(res, 200, {
        id: CREATED,
        status: revisionReads < 2 ? HOSTILE : "DEPLOYED",
        created_at: "2026-01-01T00:00:00Z",
        updated_at: "2026-01-01T00:00:00Z",
        source: "scm_host",
        source_revision_config: { repo_ref: "main" },
      });
    }
    if (path === `/v2/deployments/${DEPLOYMENT}`) {
      return sendJson(res, 200, {
        id: DEPLOYMENT,
        name: HOSTILE,
        source: "scm_host",
        source_revision_config: { repo_ref: HOSTILE, graph_config_path: HOSTILE },
        active_revision_id: BEFORE,
        latest_revision_id: req.method === "PATCH" ? CREATED : BEFORE,
      });
    }
    sendJson(res, 404, { title: "Not Found", status: 404 });
  });
});
afterAll(() => server?.close());

async function connect(answer?: (request: ElicitRequest) => void) {
  const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "mcp-terminal-key", retry: { retries: 0 } });
  const mcpServer = createMcpServer({ client, pollIntervalMs: 5, redact: ["mcp-terminal-key"] });
  const mcp = new Client({ name: "dms-terminal-test", version: "1.0.0" }, { capabilities: answer ? { elicitation: {} } : {} });
  if (answer) {
    mcp.setRequestHandler(ElicitRequestSchema, async (request) => {
      answer(request);
      return { action: "accept", content: { confirm: true } };
    });
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([mcpServer.connect(serverSide), mcp.connect(clientSide)]);
  await mcp.listTools();
  return mcp;
}

describe("the service's text, escaped alike by dms and the MCP server", () => {
  it("an error's title, detail and field errors: no raw control, no forged line, the same words as dms prints", async () => {
    const mcp = await connect();
    try {
      const result = await mcp.callTool({ name: "list_deployments", arguments: {} });
      expect(result.isError).toBe(true);
      const text = textOf(result);
      expect(text).not.toMatch(RAW_CONTROL);
      // The server's line breaks are escaped: one line for the answer, one per field error, and the server's own advice.
      expect(text.split("\n").filter((line) => line.startsWith("- "))).toHaveLength(1);
      const words = terminalSafe(`${HOSTILE}: ${HOSTILE}`);
      expect(text).toContain(words);

      const cli = await dmsInProcess(["deployments"], { DMS_BASE_URL: server.baseUrl, DMS_API_KEY: "mcp-terminal-key" });
      expect(cli.code).toBe(6);
      expect(cli.stderr).toContain(words);
      expect(cli.stderr).toContain(terminalSafe(HOSTILE));
    } finally {
      await mcp.close();
    }
  });

  it("a revision's state sent as progress, and the plan a person is asked to confirm", async () => {
    revisionReads = 0;
    const asked: string[] = [];
    const mcp = await connect((request) => asked.push(String(request.params.message)));
    try {
      const progress: string[] = [];
      const result = await mcp.callTool({ name: "deploy", arguments: { deployment_id: DEPLOYMENT, source_revision_config: { repo_ref: "main" } } }, undefined, {
        onprogress: (p: { message?: string }) => progress.push(String(p.message)),
      });
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(progress[0]).toBe(terminalSafe(HOSTILE));
      expect(asked).toHaveLength(1);
      expect(asked[0]).not.toMatch(RAW_CONTROL);
      // The deployment's ref, from the server, shows escaped inside its line of the plan.
      expect(asked[0]).toContain(terminalSafe(HOSTILE));
      expect(asked[0]!.split("\n").some((line) => line.startsWith("- forged"))).toBe(false);
    } finally {
      await mcp.close();
    }
  });
});
