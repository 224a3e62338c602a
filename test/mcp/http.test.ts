// `dms mcp --port 0`: the compiled CLI as a child process serving Streamable HTTP on 127.0.0.1,
// spoken to by the SDK's StreamableHTTPClientTransport, against a simulator on a free port; and the
// local-server gate in front of it (a foreign Host, a cross-site POST, a body that is not JSON).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, SEED_IDS, startSimulator } from "../../src/simulator/node/index.js";
import { dms as runDms, startDms } from "../cli/support.js";
import { expectStatesInOrder, textOf } from "./support.js";
import { sendRaw } from "../support/raw-http.js";

const KEY = "http-test-key-9d3c";
/** A browser client's origin admitted with --allow-origin (MCP Inspector's default). */
const INSPECTOR = "http://localhost:6274";
let sim: RunningSimulator;
let dms: ReturnType<typeof startDms>;
let url: URL;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, stepSeconds: 0.02, quiet: true });
  dms = startDms(["mcp", "--port", "0", "--interval", "10ms", "--allow-origin", INSPECTOR], { DMS_BASE_URL: sim.url, DMS_API_KEY: KEY });
  let stdout = "";
  dms.child.stdout.on("data", (chunk: string) => {
    stdout += chunk;
  });
  await dms.waitForStdout("/mcp\n");
  url = new URL(stdout.split("\n")[0]!);
});

afterAll(async () => {
  if (dms?.child.exitCode === null) dms.child.kill("SIGKILL");
  await sim?.close();
});

/** A raw request, with headers fetch would not let us set (Host). */
async function raw(method: string, headers: Record<string, string>, body = ""): Promise<{ status: number; text: string }> {
  const { status, text } = await sendRaw(url, { method, headers: { "content-length": String(Buffer.byteLength(body)), ...headers }, body });
  return { status, text };
}

describe("dms mcp --port", () => {
  it("serves the tools at /mcp on 127.0.0.1: deploy to DEPLOYED with progress", async () => {
    expect(url.hostname).toBe("127.0.0.1");
    expect(url.pathname).toBe("/mcp");
    const client = new Client({ name: "dms-http-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(url));
    try {
      expect((await client.listTools()).tools).toHaveLength(12);
      const messages: string[] = [];
      const result = await client.callTool(
        { name: "deploy", arguments: { deployment_id: SEED_IDS.deployment_id, source_revision_config: { repo_ref: "http" } } },
        undefined,
        { onprogress: (p) => messages.push(String(p.message)) },
      );
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ status: "DEPLOYED" });
      expectStatesInOrder(messages);
      expect(JSON.stringify(result)).not.toContain(KEY);
    } finally {
      await client.close();
    }
  });

  it("refuses a foreign Host (DNS rebinding) and a cross-site POST before any tool runs", async () => {
    const ping = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
    const json = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const foreignHost = await raw("POST", { ...json, host: "evil.example" }, ping);
    const crossSite = await raw("POST", { ...json, origin: "https://evil.example" }, ping);
    // The server holds the key: a page served from another loopback port is no more trusted than evil.example.
    const loopbackPage = await raw("POST", { ...json, origin: "http://localhost:5173" }, ping);
    // The DNS-rebinding page: its own name in Host and Origin.
    const rebound = await raw("POST", { ...json, host: `evil.example:${url.port}`, origin: `http://evil.example:${url.port}` }, ping);
    for (const refused of [foreignHost, crossSite, loopbackPage, rebound]) {
      expect(refused.status).toBe(403);
      // dms mcp has no --allowed-host or --cors-origin: its refusals do not send anyone looking for them.
      expect(refused.text).not.toMatch(/--allowed-host|--cors-origin/);
    }
    expect(JSON.parse(foreignHost.text).detail).toContain('not to "evil.example"');
    const ok = await raw("POST", json, ping);
    expect(ok.status).toBe(200);
  });

  it("serves its own origin (Host and Origin http://127.0.0.1:<port>: it serves no page, so no browser sends that)", async () => {
    const ping = JSON.stringify({ jsonrpc: "2.0", id: 7, method: "ping" });
    const json = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const own = await raw("POST", { ...json, host: url.host, origin: url.origin }, ping);
    expect(own.status, own.text).toBe(200);
    expect(own.text).toContain('"id":7');
  });

  it("opens a POST's SSE stream with a priming event (an id, empty data) and a retry field, whatever protocol version the header names", async () => {
    const ping = JSON.stringify({ jsonrpc: "2.0", id: 9, method: "ping" });
    for (const version of ["2025-11-25", "2025-06-18", "2025-03-26"]) {
      const json = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": version };
      const { status, text } = await raw("POST", json, ping);
      expect(status).toBe(200);
      const [priming, answer] = text.split("\n\n");
      expect(priming).toMatch(/^id: \S+\nretry: \d+\ndata: $/);
      expect(answer).toMatch(/^event: message\ndata: \{.*"id":9/);
    }
  });

  it("--allow-origin admits a browser client's origin: its preflight, its POST and CORS headers on the answer", async () => {
    const preflight = await raw("OPTIONS", {
      origin: INSPECTOR,
      "access-control-request-method": "POST",
      "access-control-request-headers": "content-type, mcp-protocol-version",
    });
    expect(preflight.status).toBe(204);
    const ping = JSON.stringify({ jsonrpc: "2.0", id: 8, method: "ping" });
    const { status, headers } = await sendRaw(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", origin: INSPECTOR, "content-length": String(ping.length) },
      body: ping,
    });
    expect(status).toBe(200);
    expect(headers["access-control-allow-origin"]).toBe(INSPECTOR);
  });

  it("--allow-origin is checked before anything starts: not an origin, or without --port, is a usage error (exit 2)", async () => {
    const env = { DMS_BASE_URL: sim.url, DMS_API_KEY: KEY };
    const notOrigin = await runDms(["mcp", "--port", "0", "--allow-origin", "*"], env);
    expect(notOrigin.code).toBe(2);
    expect(notOrigin.stderr).toContain("--allow-origin");
    const noPort = await runDms(["mcp", "--allow-origin", INSPECTOR], env);
    expect(noPort.code).toBe(2);
    expect(noPort.stderr).toContain("--allow-origin needs --port");
  });

  it("answers a body that is not JSON, another path and a GET with JSON-RPC errors, and goes on", async () => {
    const notJson = await raw("POST", { "content-type": "application/json", accept: "application/json, text/event-stream" }, "{not json");
    expect(notJson.status).toBe(400);
    expect(JSON.parse(notJson.text).error.code).toBe(-32700);
    expect((await raw("GET", {})).status).toBe(405);
    url = new URL("/elsewhere", url);
    try {
      expect((await raw("POST", { "content-type": "application/json" }, "{}")).status).toBe(404);
    } finally {
      url = new URL("/mcp", url);
    }
    const client = new Client({ name: "dms-http-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(url));
    await client.ping();
    await client.close();
  });

  it("answers a request Node's HTTP parser cannot read (a control character in a header) with a 400 problem, as the local servers do, and goes on", async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () =>
        socket.end(`POST /mcp HTTP/1.1\r\nHost: ${url.host}\r\nX-Api-Key: a\u0001b\r\nConnection: close\r\n\r\n`),
      );
      let text = "";
      socket.setEncoding("utf8");
      socket.on("data", (chunk: string) => (text += chunk));
      socket.on("close", () => resolve(text));
      socket.on("error", reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(answer).toMatch(/\r\ncontent-type: application\/problem\+json\r\n/);
    expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)).detail).toMatch(/header/);
    expect((await raw("GET", { accept: "text/event-stream" })).status).toBeLessThan(500);
  });

  it("stops with 0 on SIGTERM, its stdout having been the URL line only", async () => {
    dms.child.kill("SIGTERM");
    const result = await dms.ended;
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${url.href}\n`);
    expect(result.stderr).not.toContain(KEY);
  });
});
