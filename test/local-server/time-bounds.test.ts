// Every local Node server bounds how long receiving one request may take (SERVER_TIME_BOUNDS in
// src/local-server/listen.ts, the one listen of them all): a client that sends nothing, part of its
// headers, or a body more slowly than the bound loses the connection instead of holding it open.
// Raw sockets, because fetch and node:http send a request whole. The bounds are an option of each
// server (`timeBounds`, SERVER_TIME_BOUNDS by default); short ones here, so the file takes about a second.
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDeploymentsClient } from "../../src/client/client.js";
import { SERVER_TIME_BOUNDS, serverOptions } from "../../src/local-server/listen.js";
import { serveHttp } from "../../src/mcp/http.js";
import { startMock } from "../../src/mock/front.js";
import { startSimulator } from "../../src/simulator/node/index.js";
import { startDocsServer } from "../../tools/docs/docs-server.ts";

/** Short bounds, given to every server as its `timeBounds` option. */
const BOUNDS = { headersTimeout: 400, requestTimeout: 900, connectionsCheckingInterval: 50 };
/** Closed by then at the latest: the bound, plus the checks' interval, plus a busy machine's slack. */
const SLACK_MS = 3_000;

const servers: { name: string; url: string; close: () => Promise<void> }[] = [];

beforeAll(async () => {
  const simulator = await startSimulator({ port: 0, quiet: true, timeBounds: BOUNDS });
  const mock = await startMock({ port: 0, timeBounds: BOUNDS });
  const mcp = await serveHttp({ port: 0, client: createDeploymentsClient({ baseUrl: simulator.url, apiKey: "k" }), timeBounds: BOUNDS });
  const docs = await startDocsServer({ port: 0, timeBounds: BOUNDS });
  servers.push(
    { name: "simulator", url: simulator.url, close: () => simulator.close() },
    { name: "mock", url: mock.baseUrl, close: () => mock.close() },
    { name: "dms mcp --port", url: mcp.url, close: () => mcp.close() },
    { name: "npm run docs", url: `${docs.url}/`, close: () => docs.close() },
  );
}, 120_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** Opens a socket, writes `start`, then one more byte every `everyMs`; resolves with what came back and when the server closed it. */
function trickle(url: string, start: string, everyMs: number): Promise<{ answer: string; closedAfterMs: number }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket: Socket = connect(Number(port), hostname, () => start !== "" && socket.write(start));
    let answer = "";
    const drip = setInterval(() => socket.writable && socket.write("x"), everyMs);
    socket.on("data", (chunk) => (answer += chunk.toString("latin1")));
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearInterval(drip);
      resolve({ answer, closedAfterMs: performance.now() - started });
    });
    // A hang bound for the test itself, far past the server's.
    setTimeout(() => {
      clearInterval(drip);
      socket.destroy();
      reject(new Error(`${url}: the server kept a trickling connection open for 20 s`));
    }, 20_000).unref();
  });
}

describe("time bounds of every local Node server", () => {
  it("every server's default is SERVER_TIME_BOUNDS, given by the one listen helper", () => {
    expect(serverOptions()).toEqual(SERVER_TIME_BOUNDS);
    expect(SERVER_TIME_BOUNDS).toEqual({ headersTimeout: 5_000, requestTimeout: 15_000, connectionsCheckingInterval: 1_000 });
  });

  // Every trickle at once, on every server: the file takes about as long as the longer bound.
  it("no byte, headers that do not end within their bound, or a body sent more slowly than the request's: the connection is closed", async () => {
    const slowHeaders = (s: (typeof servers)[number]) => trickle(s.url, `GET ${new URL(s.url).pathname} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: `, 40);
    const slowBody = (s: (typeof servers)[number]) =>
      trickle(
        s.url,
        `PATCH ${new URL(s.url).pathname.replace(/\/$/, "")}/v2/listeners/x HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Api-Key: k\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`,
        100,
      );
    // A connection that never sends a byte.
    const silent = (s: (typeof servers)[number]) => trickle(s.url, "", 3_600_000);
    const [headers, bodies, silences] = await Promise.all([
      Promise.all(servers.map(slowHeaders)),
      Promise.all(servers.map(slowBody)),
      Promise.all(servers.map(silent)),
    ]);
    servers.forEach((s, i) => {
      const h = headers[i]!;
      const b = bodies[i]!;
      const quiet = silences[i]!;
      expect(quiet.closedAfterMs, `${s.name} silent`).toBeGreaterThanOrEqual(BOUNDS.headersTimeout - 50);
      expect(quiet.closedAfterMs, `${s.name} silent`).toBeLessThan(BOUNDS.headersTimeout + SLACK_MS);
      expect(quiet.answer === "" || quiet.answer.startsWith("HTTP/1.1 408"), `${s.name} silent: ${quiet.answer}`).toBe(true);
      // Headers that never end: closed by the bound at the latest. (Not held to "not before it": in one
      // CI run on a loaded machine Node's connection check closed such a trickle at 75 ms; the silent
      // connection above holds every server to its bound from below.)
      expect(h.closedAfterMs, `${s.name} headers`).toBeLessThan(BOUNDS.headersTimeout + SLACK_MS);
      expect(h.answer === "" || h.answer.startsWith("HTTP/1.1 408"), `${s.name}: ${h.answer}`).toBe(true);
      expect(b.closedAfterMs, `${s.name} body`).toBeGreaterThanOrEqual(BOUNDS.requestTimeout - 50);
      expect(b.closedAfterMs, `${s.name} body`).toBeLessThan(BOUNDS.requestTimeout + SLACK_MS);
    });
  }, 30_000);
});
