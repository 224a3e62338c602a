// The node:http adapter: serves a core handler on a port, with the rules of a server on a
// developer's machine (src/local-server/policy.ts): a Host check against DNS rebinding, CORS for
// loopback origins (and the ones configured) only, no state-changing request from another site,
// and bodies over the limit refused with 413 before they are read in full.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { declaresTooLarge, readBodyWithin, tooLargeDetail } from "../../local-server/body.js";
import { corsHeaders, isAllowedHost, isCrossSiteWrite, isPreflight, preflightHeaders, type LocalServerPolicy } from "../../local-server/policy.js";
import type { Handler, SimRequest } from "../core/handler.js";
import { problem, replyBody, type Reply } from "../core/reply.js";
import { REQUEST_BOUNDS } from "../../local-server/bounds.js";

export interface NodeServerOptions {
  handle: Handler;
  policy: LocalServerPolicy;
  log: ((line: string) => void) | undefined;
}

const decoder = new TextDecoder();

export function createNodeServer({ handle, policy, log }: NodeServerOptions): Server {
  const server = createServer((req, res) => {
    const started = log ? performance.now() : 0;
    const origin = req.headers.origin;
    const cors = corsHeaders(origin, policy);
    const done = (reply: Reply) => {
      send(res, reply, cors);
      log?.(`${req.method} ${req.url} ${reply.status} ${(performance.now() - started).toFixed(1)}ms`);
    };
    const path = pathOf(req);
    if (!isAllowedHost(req.headers.host, policy)) {
      return done(
        problem(
          "forbidden",
          `This server answers only requests addressed to it by a local name, not to ${JSON.stringify(req.headers.host ?? "")}; start it with --allowed-host to add one.`,
          path,
        ),
      );
    }
    if (isPreflight(req.method, req.headers)) {
      send(
        res,
        { status: 204 },
        preflightHeaders(
          origin,
          req.headers["access-control-request-headers"],
          policy,
          req.headers["access-control-request-private-network"] as string | undefined,
        ),
      );
      return;
    }
    if (isCrossSiteWrite(req.method, req.headers, policy)) {
      return done(
        problem(
          "forbidden",
          `Requests that change state are not accepted from pages on ${origin ?? "another site"}; start the server with --cors-origin to allow that origin.`,
          path,
        ),
      );
    }
    if (declaresTooLarge(req.headers["content-length"], REQUEST_BOUNDS.maxBodyBytes)) {
      // Refused unread; the connection closes so the rest of the upload is never taken in.
      return done({ ...problem("content-too-large", tooLargeDetail(REQUEST_BOUNDS.maxBodyBytes), path), headers: { connection: "close" } });
    }
    const failed = (error: unknown) => {
      log?.(`error: ${(error as Error).stack ?? String(error)}`);
      done(problem("internal", "The simulator failed to handle the request.", path));
    };
    let tooLarge = false;
    const request: SimRequest = {
      method: req.method ?? "GET",
      target: req.url ?? "/",
      header: (name) => {
        const value = req.headers[name];
        return value === undefined ? null : Array.isArray(value) ? value.join(",") : value;
      },
      text: async (limit) => {
        const read = await readBodyWithin(req, limit);
        if (read.ok) return decoder.decode(read.bytes);
        tooLarge = true;
        return null;
      },
    };
    let reply: Reply | Promise<Reply>;
    try {
      reply = handle(request);
    } catch (error) {
      failed(error);
      return;
    }
    const withClose = (r: Reply) => (tooLarge ? { ...r, headers: { ...r.headers, connection: "close" } } : r);
    if (reply instanceof Promise) reply.then((r) => done(withClose(r)), failed);
    else done(reply);
  });
  // A client that asks before uploading (Expect: 100-continue, as curl does for large bodies) is
  // told to go on only when the body it declares fits; otherwise the 413 above is its answer and
  // the body is never sent.
  server.on("checkContinue", (req, res) => {
    if (!declaresTooLarge(req.headers["content-length"], REQUEST_BOUNDS.maxBodyBytes)) res.writeContinue();
    server.emit("request", req, res);
  });
  return server;
}

function pathOf(req: IncomingMessage): string {
  const url = req.url ?? "/";
  const q = url.indexOf("?");
  return q < 0 ? url : url.slice(0, q);
}

/** Sends the reply; `extraHeaders` (a fresh object per request) is filled in and used as the headers. */
function send(res: ServerResponse, reply: Reply, extraHeaders: Record<string, string>): void {
  const body = replyBody(reply);
  const headers: Record<string, string | number> = extraHeaders;
  headers["content-length"] = typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
  if (body.length > 0) headers["content-type"] = reply.contentType ?? "application/json";
  if (reply.headers) Object.assign(headers, reply.headers);
  res.writeHead(reply.status, headers);
  res.end(body);
}
