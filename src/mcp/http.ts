// The MCP server over Streamable HTTP on a loopback port, as `dms mcp --port` runs it, for clients
// that connect by URL. The server holds the API key, so whoever reaches the port can deploy: it
// listens on 127.0.0.1 only and puts the package's local-server gate first (a foreign Host, as a
// DNS-rebinding page sends, gets a 403; no web page may POST, not even one served from another
// loopback port, since MCP clients send no Origin, unless --allow-origin names its origin; bodies
// are bounded). Stateless: each POST gets its own server and transport, so nothing outlives its
// request, and closing the response (the client going away) aborts what the call was doing.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { listen, serverOptions, type TimeBounds } from "../local-server/listen.js";
import { createNodeGate, sendAnswer } from "../local-server/node-gate.js";
import { createMcpServer, type McpServerOptions } from "./server.js";
import { readMessage, refusal, restoreIds } from "./framing.js";
import { primeEventStream } from "./sse-events.js";

const MCP_PATH = "/mcp";
const HOST = "127.0.0.1";

/**
 * Makes every chunk of the answer write a big integer id back as its digits (framing.ts). The
 * answer gets shorter then, so a Content-Length the SDK gave is dropped (the answer goes chunked).
 */
function restoreIdsInAnswer(res: ServerResponse): void {
  // node:http's writeHead, write and end have several overloads: each original is called with
  // Reflect.apply and replaced with Object.assign, so no cast claims a signature for them.
  const { writeHead, write, end } = res;
  const restore = (chunk: unknown) =>
    typeof chunk === "string" ? restoreIds(chunk) : chunk instanceof Uint8Array ? restoreIds(Buffer.from(chunk).toString("utf8")) : chunk;
  Object.assign(res, {
    writeHead(status: number, ...rest: unknown[]): ServerResponse {
      res.removeHeader("content-length");
      const unsized = rest.map((arg) =>
        typeof arg === "object" && arg !== null && !Array.isArray(arg)
          ? Object.fromEntries(Object.entries(arg).filter(([name]) => name.toLowerCase() !== "content-length"))
          : arg,
      );
      return Reflect.apply(writeHead, res, [status, ...unsized]);
    },
    write(chunk: unknown, ...rest: unknown[]): boolean {
      return Reflect.apply(write, res, [restore(chunk), ...rest]);
    },
    end(chunk?: unknown, ...rest: unknown[]): ServerResponse {
      return Reflect.apply(end, res, typeof chunk === "function" || chunk === undefined ? [chunk, ...rest] : [restore(chunk), ...rest]);
    },
  });
}

/** A JSON-RPC error without a request id, for what never reached the protocol. */
function rpcError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string>): void {
  sendAnswer(res, status, headers, JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }), "application/json");
}

export interface HttpMcpServer {
  /** The MCP endpoint, such as http://127.0.0.1:4012/mcp. */
  url: string;
  close(): Promise<void>;
}

/** Serves on 127.0.0.1:port (0 picks a free one) at /mcp until closed. */
export async function serveHttp(
  options: McpServerOptions & {
    port: number;
    timeBounds?: Partial<TimeBounds>;
    /** Origins whose pages may call the server (CORS and writes), as `parseCorsOrigin` reads them. */
    allowOrigins?: readonly string[];
  },
): Promise<HttpMcpServer> {
  // No page on the machine may drive the server, only the origins named with --allow-origin (a
  // browser client such as MCP Inspector). Its own origin is admitted: it serves no page (policy.ts).
  const policy = { loopbackOrigins: false, corsOrigins: options.allowOrigins ?? [] };
  const gate = createNodeGate({ policy, listenHost: HOST, serverName: "dms mcp", flagHints: false });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const admitted = gate.admit(req, res);
    if (!admitted) return;
    if (admitted.path !== MCP_PATH) return rpcError(res, 404, -32601, `nothing here: the MCP endpoint is ${MCP_PATH}`, admitted.cors);
    // No sessions, so no stream to GET and nothing to DELETE.
    if (admitted.method !== "POST") return rpcError(res, 405, -32000, "this server is stateless: POST JSON-RPC messages", { ...admitted.cors, allow: "POST" });
    const body = await gate.readBody(req, res, admitted);
    if (!body.ok) return;
    // The same reading as over stdio (framing.ts): not JSON, a batch or not JSON-RPC is answered here.
    const reading = readMessage(new TextDecoder().decode(body.bytes));
    if (!reading.ok) {
      sendAnswer(res, 400, admitted.cors, refusal(reading), "application/json");
      return;
    }
    const { message } = reading;
    for (const [name, value] of Object.entries(admitted.cors)) res.setHeader(name, value);
    restoreIdsInAnswer(res);
    const server = createMcpServer(options);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    // An SSE answer opens with a priming event and a retry field (sse-events.ts).
    primeEventStream(res);
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, message);
  }

  const http = createServer(serverOptions(options.timeBounds), (req, res) => {
    handle(req, res).catch(() => {
      // A request that failed half-way gets a bare 500, and the server goes on.
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  gate.answerUnreadable(http);
  const listening = await listen(http, options.port, HOST);
  return { url: `${listening.url}${MCP_PATH}`, close: listening.close };
}
