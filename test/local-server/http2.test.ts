// The node gate and the simulator's one request path (src/simulator/node/serve.ts) on node:http2's
// compatibility API, which is what Vite's dev server is when `server.https` is set: the Vite plugin
// answered every such request 403 (the gate read the Host header, which HTTP/2 replaces with
// `:authority`), and a 413 threw on its `Connection: close` (a header HTTP/2 does not have).
// Cleartext HTTP/2 here, in-process: the same request and response objects without a certificate.
import http2 from "node:http2";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createNodeGate } from "../../src/local-server/node-gate.js";
import { createSimulator, SEED_IDS } from "../../src/simulator/core/index.js";
import { serveSimulatorRequest } from "../../src/simulator/node/serve.js";

const sim = createSimulator({ stepSeconds: 3600 });
const gate = createNodeGate({ policy: {}, serverName: "simulator" });
const server = http2.createServer((req, res) =>
  serveSimulatorRequest(req as unknown as IncomingMessage, res as unknown as ServerResponse, { gate, handle: sim.handle }),
);
let session: http2.ClientHttp2Session;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  session = http2.connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
afterAll(async () => {
  session?.close();
  await new Promise((resolve) => server.close(resolve));
  await sim.close();
});

function send(headers: http2.OutgoingHttpHeaders, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = session.request({ "x-api-key": "k", ...headers });
    let status = 0;
    let text = "";
    req.on("response", (h) => (status = Number(h[":status"])));
    req.on("data", (chunk: Buffer) => (text += chunk));
    req.on("end", () => resolve({ status, text }));
    req.on("error", reject);
    req.end(body);
  });
}

const deployment = `/v2/deployments/${SEED_IDS.deployment_id}`;
const json = { "content-type": "application/json" };

it.each([
  ["a read, addressed by :authority", { ":path": "/v2/listeners" }, undefined, 200, undefined],
  ["a write", { ":method": "PATCH", ":path": deployment, ...json }, '{"source_revision_config":{"repo_ref":"h2"}}', 200, undefined],
  ["a body past the bound", { ":method": "PATCH", ":path": deployment, ...json }, "x".repeat(1024 * 1024 + 1), 413, "content-too-large"],
  ["a foreign :authority", { ":path": "/v2/listeners", ":authority": "evil.example" }, undefined, 403, "forbidden"],
  ["a cross-site write", { ":method": "PATCH", ":path": deployment, "content-type": "text/plain", origin: "https://evil.example" }, "{}", 403, "forbidden"],
  ["a method the path does not have", { ":method": "DELETE", ":path": deployment }, undefined, 405, "method-not-allowed"],
] as const)("over HTTP/2, %s", async (_name, headers, body, status, kind) => {
  const answer = await send(headers, body);
  expect(answer.status, answer.text.slice(0, 300)).toBe(status);
  if (kind) expect(JSON.parse(answer.text).type).toBe(`urn:deployment-management-api:problem:${kind}`);
});
