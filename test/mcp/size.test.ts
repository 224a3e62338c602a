// Every answer bounded: a tool result is at most MAX_RESULT_BYTES as JSON, its structured data and its
// text together, whatever the service answered. With the SDK's client (which checks structuredContent
// against the output schema) against a real HTTP server that answers a few megabytes: a list is cut
// to the items that fit, with a note and the offset that reads on; a large resource keeps its data
// and drops its text copy, with a note; a resource too large even alone is an error saying how to read it.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDeploymentsClient } from "../../src/client/client.js";
import { createMcpServer } from "../../src/mcp/index.js";
import { MAX_RESULT_BYTES } from "../../src/mcp/results.js";
import { createSimulator, SEED_IDS } from "../../src/simulator/core/index.js";
import { type LocalServer, sendJson, startLocalServer } from "../client/local-server.js";
import { textOf } from "./support.js";

const KEY = "size-test-key";
const DEPLOYMENT = SEED_IDS.deployment_id;
let upstream: LocalServer;
let revision: Record<string, any>;
/** The repo_ref of the revision the upstream answers for each revision id. */
const REF_SIZES: Record<string, number> = {};

beforeAll(async () => {
  // A real revision of the simulator, to copy: the answers match the document's schemas.
  const sim = createSimulator({ stepSeconds: 60 });
  const client = createDeploymentsClient({ baseUrl: "https://api.example.test", apiKey: KEY, fetch: sim.fetch });
  const { data } = await client.GET("/v2/deployments/{deployment_id}/revisions", { params: { path: { deployment_id: DEPLOYMENT } } });
  revision = data!.resources[0]!;
  upstream = await startLocalServer((req, res) => {
    const path = req.url.pathname;
    if (path.endsWith("/revisions")) {
      // 3 MB of revisions on one page: the request's offset plus what came back.
      const copies = Array.from({ length: Math.ceil((3 * 1024 * 1024) / JSON.stringify(revision).length) }, () => revision);
      const offset = Number(req.url.searchParams.get("offset") ?? 0);
      return sendJson(res, 200, { resources: copies, offset: offset + copies.length });
    }
    const id = path.split("/").at(-1)!;
    const size = REF_SIZES[id] ?? 10;
    sendJson(res, 200, { ...revision, id, source_revision_config: { ...revision.source_revision_config, repo_ref: "r".repeat(size) } });
  });
});
afterAll(() => upstream?.close());

async function connected() {
  const client = createDeploymentsClient({ baseUrl: upstream.baseUrl, apiKey: KEY, retry: { retries: 0 } });
  const server = createMcpServer({ client, pollIntervalMs: 5 });
  const mcp = new Client({ name: "size-test", version: "1.0.0" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverSide), mcp.connect(clientSide)]);
  // callTool checks structuredContent against the output schemas it learnt from tools/list.
  await mcp.listTools();
  return mcp;
}

const sizeOf = (result: unknown) => Buffer.byteLength(JSON.stringify(result));

describe(`results stay under ${MAX_RESULT_BYTES} bytes`, () => {
  it("a 3 MB page of revisions is cut to what fits, with a note and the offset of the first item left out", async () => {
    const mcp = await connected();
    try {
      const result = await mcp.callTool({ name: "list_revisions", arguments: { deployment_id: DEPLOYMENT, offset: 40, limit: 100 } });
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(sizeOf(result)).toBeLessThanOrEqual(MAX_RESULT_BYTES);
      const page = result.structuredContent as { resources: unknown[]; offset: number };
      expect(page.resources.length).toBeGreaterThan(100);
      expect(page.offset).toBe(40 + page.resources.length);
      expect(textOf(result)).toContain(`list_revisions: cut to the first ${page.resources.length} of`);
      expect(textOf(result)).toContain(`call list_revisions again with offset ${page.offset}`);
      // The text copy is the data, as cut.
      expect(result.content).toContainEqual({ type: "text", text: JSON.stringify(page) });
    } finally {
      await mcp.close();
    }
  });

  it("a 700 KB resource keeps its data and drops its text copy, with a note; one of 3 MB is an error saying how to read it", async () => {
    const mcp = await connected();
    try {
      REF_SIZES["7a0c0b6e-0000-4000-8000-000000000700"] = 700 * 1024;
      const large = await mcp.callTool({ name: "get_revision", arguments: { deployment_id: DEPLOYMENT, revision_id: "7a0c0b6e-0000-4000-8000-000000000700" } });
      expect(large.isError, textOf(large)).toBeFalsy();
      expect(sizeOf(large)).toBeLessThanOrEqual(MAX_RESULT_BYTES);
      expect((large.structuredContent as any).source_revision_config.repo_ref).toHaveLength(700 * 1024);
      expect(textOf(large)).toMatch(/^get_revision: the answer is \d+ characters of JSON; its text copy is left out/);
      REF_SIZES["7a0c0b6e-0000-4000-8000-000000003000"] = 3 * 1024 * 1024;
      const huge = await mcp.callTool({ name: "get_revision", arguments: { deployment_id: DEPLOYMENT, revision_id: "7a0c0b6e-0000-4000-8000-000000003000" } });
      expect(huge.isError).toBe(true);
      expect(sizeOf(huge)).toBeLessThan(1024);
      expect(textOf(huge)).toMatch(/^get_revision: the answer is \d+ bytes, over the \d+-byte cap on a result, so it is not sent: read it with dms or the API/);
    } finally {
      await mcp.close();
    }
  });

  it("a small answer is left as it is: data and its text copy", async () => {
    const mcp = await connected();
    try {
      const small = await mcp.callTool({ name: "get_revision", arguments: { deployment_id: DEPLOYMENT, revision_id: "7a0c0b6e-0000-4000-8000-000000000001" } });
      expect(small.content).toEqual([{ type: "text", text: JSON.stringify(small.structuredContent) }]);
    } finally {
      await mcp.close();
    }
  });
});
