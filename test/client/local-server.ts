// A real node:http server on a random port for client tests: each test gives the handler that answers,
// and reads back what the client sent.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach } from "vitest";

export interface SeenRequest {
  /** When the request arrived (Date.now()), to time the client's waits on the server's side. */
  at: number;
  method: string;
  url: URL;
  headers: IncomingMessage["headers"];
  body: string;
}

export type Handler = (request: SeenRequest, response: ServerResponse) => void | Promise<void>;

export interface LocalServer {
  baseUrl: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

export async function startLocalServer(handler: Handler): Promise<LocalServer> {
  const requests: SeenRequest[] = [];
  const server = createServer(async (req, res) => {
    const at = Date.now();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const seen: SeenRequest = {
      at,
      method: req.method ?? "",
      url: new URL(req.url ?? "/", "http://localhost"),
      headers: req.headers,
      body: Buffer.concat(chunks).toString("utf8"),
    };
    requests.push(seen);
    try {
      await handler(seen, res);
    } catch (error) {
      res.statusCode = 599;
      res.end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "Content-Type": status >= 400 ? "application/problem+json" : "application/json",
    "Content-Length": Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** A text body (plain text, an HTML page) with the given status and content type. */
export function sendText(res: ServerResponse, status: number, body: string, contentType = "text/plain", headers: Record<string, string> = {}) {
  res.writeHead(status, { "Content-Type": contentType, "Content-Length": Buffer.byteLength(body), ...headers });
  res.end(body);
}

/** Sends the headers and the start of a JSON body, then drops the connection: a body cut short. */
export function cutMidBody(res: ServerResponse, status = 200) {
  const partial = '{"resources": [{"id": "7f1c2d4e';
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": 4096 });
  res.write(partial, () => setTimeout(() => res.socket?.destroy(), 10));
}

/**
 * `serve(handler)` for a test file: starts a local server per call and closes all of them after
 * each test, so a failing test leaves no server behind.
 */
export function localServers(): (handler: Handler) => Promise<LocalServer> {
  const servers: LocalServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  return async (handler) => {
    const server = await startLocalServer(handler);
    servers.push(server);
    return server;
  };
}

/** Serves `total` generated items on any paged path; item i has id `item-i` and a payload of `padding` bytes. */
export async function listServer(total: number, padding = 0) {
  return startLocalServer((req, res) => {
    const limit = Number(req.url.searchParams.get("limit") ?? 20);
    const offset = Number(req.url.searchParams.get("offset") ?? 0);
    const end = Math.min(total, offset + limit);
    const resources = [];
    for (let i = offset; i < end; i++) resources.push({ id: `item-${i}`, name: "x".repeat(padding) });
    sendJson(res, 200, { resources, offset: offset + resources.length });
  });
}
