// The node:http half of the gate (gate.ts is the pure half): what every Node server of this package
// (the simulator's adapter, the Vite plugin's paths, the mock's front, dms mcp --port) does with a
// request before its body is read, how it reads the body, and how it sends an answer.
// - Host: only the server's own names (loopback, --allowed-host, the address it listens on unless a
//   wildcard), so a DNS-rebinding page gets a 403 and nothing else, CORS headers included;
// - CORS: a preflight answered 204 here; every other answer carries corsHeaders;
// - cross-site writes (forms, text/plain POSTs need no preflight) refused with 403;
// - the request target: a path, with % escapes that decode (400 otherwise);
// - a declared body over the bound refused with 413 before a byte is read, and before a
//   `100 Continue` go-ahead, so a refused upload is never sent; a body read in full only up to it.
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { tooLargeDetail } from "../gate/body.js";
import { declaresTooLarge, readBodyWithin } from "../shared/read-within.js";
import { REQUEST_BOUNDS, type RequestBounds } from "../gate/bounds.js";
import { crossSiteWriteProblem, foreignHostProblem, type GateProblem, requestTargetProblem, withoutDotSegments } from "../gate/gate.js";
import { corsHeaders, isAllowedHost, isCrossSiteWrite, isPreflight, type LocalServerPolicy, preflightHeaders } from "../gate/policy.js";
import { problemDetails } from "../shared/problems.js";

/** Addresses that mean "every interface": not a name a client addresses the server by. */
const WILDCARD_HOSTS = new Set(["0.0.0.0", "::", "[::]"]);
// How long the connection of a refused upload stays open, unread, after the 413 (see sendThenClose).
const LINGER_MS = 1000;

export interface GateOptions {
  policy: LocalServerPolicy;
  /** The address the server listens on: a name it answers to too (HOST=192.168.1.5), unless a wildcard. */
  listenHost?: string;
  bounds?: Readonly<RequestBounds>;
  /** How the refusals name the server: "mock", "simulator". */
  serverName: string;
  /** Whether the refusals name --allowed-host and --cors-origin; false for a server without them (dms mcp). Default true. */
  flagHints?: boolean;
  /**
   * How a refusal is written: its body and media type. Default problem+json; the simulator with
   * `errors: "service"` writes the service's shape, so its gate answers as its core does.
   */
  writeProblem?: (problem: GateProblem) => { contentType: string; text: string };
}

/** A request the gate let through: its method, target (path and query, without dot segments), path, and the CORS headers every answer to it carries. */
export interface Admitted {
  method: string;
  target: string;
  path: string;
  cors: Record<string, string>;
}

export type BodyBytes = { ok: true; bytes: Uint8Array } | { ok: false };

export interface NodeGate {
  readonly policy: LocalServerPolicy;
  readonly bounds: Readonly<RequestBounds>;
  /**
   * Runs the checks before the body. Answers the request itself (403, 204 preflight, 400, 413) and
   * returns undefined, or returns what the server needs to go on; with `expectsContinue` (the
   * `checkContinue` event) it gives the go-ahead only then. `target` is the request target the
   * server routes, when it is not `req.url` (a server mounted under a prefix).
   */
  admit(req: IncomingMessage, res: ServerResponse, expectsContinue?: boolean, target?: string): Admitted | undefined;
  /**
   * Reads the body within the bound (or `limit`, when lower); past it, answers 413 (and closes the
   * connection) and returns `{ ok: false }`.
   */
  readBody(req: IncomingMessage, res: ServerResponse, admitted: Admitted, limit?: number): Promise<BodyBytes>;
  /** Whether the request announces a body (Content-Length or Transfer-Encoding). */
  hasBody(req: IncomingMessage): boolean;
  /**
   * Answers, on `server`, a request Node's HTTP parser cannot read (a control character in a header,
   * headers past 16 KiB, an unknown method, Content-Length beside Transfer-Encoding) with a 400
   * problem in the gate's shape naming what is wrong, instead of Node's bare 400 or 431 (a status
   * the document does not list). A request too slow to arrive still gets Node's 408.
   */
  answerUnreadable(server: Server): void;
}

/**
 * A request header as one value, a repeated one joined with ", " as fetch's `Headers.get` joins it,
 * or null when it is absent. Read from `headersDistinct`: `req.headers` keeps only the first of a
 * repeated Content-Type (and Authorization, User-Agent...), so two Content-Types were read as one over
 * HTTP where in-process, MSW and the docs page see both and refuse them (415).
 */
export function headerValue(req: IncomingMessage, name: string): string | null {
  const values = distinctHeaders(req)?.[name];
  if (values !== undefined) return values.join(", ");
  const value = req.headers[name];
  return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
}

/**
 * The host a request is addressed to: its Host header, or over HTTP/2 (Vite's server with `https`)
 * its `:authority`, which takes Host's place there. Read as Host only, every HTTP/2 request was a
 * foreign one (403), so the Vite plugin answered nothing under `vite dev --https`.
 */
function hostOf(req: IncomingMessage): string | undefined {
  const authority = req.headers[":authority"];
  return req.headers.host ?? (typeof authority === "string" ? authority : undefined);
}

/**
 * Every value of every header, or undefined for a request without them: Vite's server over HTTPS is
 * HTTP/2, whose compatibility request (Http2ServerRequest) has `headers` but no `headersDistinct`
 * (and HTTP/2 has no repeated singleton headers to lose).
 */
function distinctHeaders(req: IncomingMessage): NodeJS.Dict<string[]> | undefined {
  return (req as { headersDistinct?: NodeJS.Dict<string[]> }).headersDistinct;
}

// The time bounds every local server sets on its node:http server live with the listen (listen.ts).
export { SERVER_TIME_BOUNDS } from "./listen.js";

export function createNodeGate(options: GateOptions): NodeGate {
  const { listenHost, serverName, flagHints = true } = options;
  const write = options.writeProblem ?? ((problem: GateProblem) => ({ contentType: "application/problem+json", text: JSON.stringify(problem) }));
  const refuse = (res: ServerResponse, problem: GateProblem, headers: Record<string, string>) => {
    const { contentType, text } = write(problem);
    return sendAnswer(res, problem.status, headers, text, contentType);
  };
  const bounds = options.bounds ?? REQUEST_BOUNDS;
  const ownHost =
    listenHost === undefined || WILDCARD_HOSTS.has(listenHost)
      ? []
      : [listenHost.includes(":") && !listenHost.startsWith("[") ? `[${listenHost}]` : listenHost];
  const listed = options.policy.allowedHosts;
  const policy: LocalServerPolicy = { ...options.policy, allowedHosts: listed === true ? true : [...(listed ?? []), ...ownHost] };

  return {
    policy,
    bounds,
    admit(req, res, expectsContinue = false, target = req.url ?? "/") {
      const method = req.method ?? "GET";
      const q = target.indexOf("?");
      const path = q < 0 ? target : target.slice(0, q);
      // Two Host headers: req.headers keeps the first, so a foreign one after the server's own was
      // admitted. HTTP allows one (RFC 9112, section 3.2: 400), and the request is not read further.
      if ((distinctHeaders(req)?.host?.length ?? 0) > 1) {
        refuse(res, problemDetails("bad-request", "The request has more than one Host header; HTTP allows one.", path), {});
        return undefined;
      }
      // A foreign Host gets nothing else, CORS headers included.
      const host = hostOf(req);
      if (!isAllowedHost(host, policy)) {
        refuse(res, foreignHostProblem(host, path, serverName, flagHints), {});
        return undefined;
      }
      const origin = req.headers.origin;
      if (isPreflight(method, req.headers)) {
        const privateNetwork = req.headers["access-control-request-private-network"];
        const headers = preflightHeaders(
          origin,
          req.headers["access-control-request-headers"],
          policy,
          typeof privateNetwork === "string" ? privateNetwork : undefined,
        );
        res.writeHead(204, { ...headers, "content-length": "0" });
        res.end();
        return undefined;
      }
      const cors = corsHeaders(origin, policy);
      const refused = isCrossSiteWrite(method, req.headers.host === host ? req.headers : { ...req.headers, host }, policy)
        ? crossSiteWriteProblem(origin, method, path, serverName, flagHints)
        : requestTargetProblem(target);
      if (refused) {
        refuse(res, refused, cors);
        return undefined;
      }
      if (declaresTooLarge(req.headers["content-length"], bounds.maxBodyBytes)) {
        sendThenClose(req, res, write(problemDetails("content-too-large", tooLargeDetail(bounds.maxBodyBytes), path)), 413, cors);
        return undefined;
      }
      if (expectsContinue) res.writeContinue();
      // Dot segments removed, as a URL parser removes them before fetch sends a request.
      const routed = withoutDotSegments(target);
      return { method, target: routed, path: routed === target ? path : routed.split("?")[0]!, cors };
    },
    async readBody(req, res, admitted, limit = bounds.maxBodyBytes) {
      const read = await readBodyWithin(req, Math.min(limit, bounds.maxBodyBytes));
      if (read.ok) return read;
      sendThenClose(req, res, write(problemDetails("content-too-large", tooLargeDetail(read.limit), admitted.path)), 413, admitted.cors);
      return { ok: false };
    },
    hasBody(req) {
      return req.headers["content-length"] !== undefined || req.headers["transfer-encoding"] !== undefined;
    },
    answerUnreadable(server) {
      server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
        const state = socket as Duplex & { bytesWritten?: number; _httpMessage?: ServerResponse | null };
        const untouched = socket.writable && !state.bytesWritten;
        // A request too slow to arrive: Node's own 408, then the connection is closed.
        if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") {
          if (untouched && !state._httpMessage?.headersSent) socket.write("HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n");
          socket.destroy();
          return;
        }
        // The answer an earlier request on this connection is owed goes out first, then the
        // connection is closed (Node's own handler cut it short).
        const owed = state._httpMessage;
        if (owed && socket.writable && !owed.writableFinished) {
          owed.once("finish", () => socket.destroy());
          owed.once("close", () => socket.destroy());
          return;
        }
        // As from Node's own handler, only a connection that has been sent nothing gets an answer.
        if (!untouched) {
          socket.destroy();
          return;
        }
        const { contentType, text } = write(problemDetails("bad-request", unreadableDetail(error.code)));
        socket.end(
          `HTTP/1.1 400 Bad Request\r\ncontent-type: ${contentType}\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`,
          () => socket.destroy(),
        );
      });
    },
  };
}

/** What a parse error of Node's HTTP parser says of the request, in a client's words. */
function unreadableDetail(code: string | undefined): string {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return "The request line and headers are larger than this server reads (16 KiB); send a shorter URL or fewer headers.";
    case "HPE_INVALID_HEADER_TOKEN":
    case "HPE_INVALID_HEADER_VALUE":
    case "HPE_LF_EXPECTED":
    case "HPE_CR_EXPECTED":
      return "A request header has a name or value HTTP does not allow (a control character, say).";
    case "HPE_INVALID_METHOD":
      return "The request method is not one this server can read.";
    case "HPE_UNEXPECTED_CONTENT_LENGTH":
    case "HPE_INVALID_CONTENT_LENGTH":
    case "HPE_INVALID_TRANSFER_ENCODING":
    case "HPE_INVALID_CHUNK_SIZE":
      return "The request's body is not framed as HTTP/1.1 allows (Content-Length and Transfer-Encoding).";
    default:
      return `The request is not HTTP/1.1 this server can read${code?.startsWith("HPE_") ? ` (${code})` : ""}.`;
  }
}

/** Sends problem details (application/problem+json); returns the status. */
export function sendProblem(res: ServerResponse, problem: GateProblem, headers: Record<string, string>): number {
  return sendAnswer(res, problem.status, headers, JSON.stringify(problem), "application/problem+json");
}

/**
 * Sends an answer with its length. A HEAD gets the headers and no body. Header values a client
 * put in the answer are the caller's to make safe; a value Node refuses ends in a bare 500 here,
 * never a thrown error.
 */
export function sendAnswer(
  res: ServerResponse,
  status: number,
  headers: Record<string, string | number>,
  body: string | Uint8Array,
  contentType?: string,
): number {
  const length = typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
  const all: Record<string, string | number> = { ...headers, "content-length": length };
  if (contentType && length > 0) all["content-type"] = contentType;
  res.writeHead(status, all);
  res.end(res.req?.method === "HEAD" ? undefined : body);
  return status;
}

/**
 * Answers a request whose body was not read (413), then closes its connection. Closing at once
 * would reset a connection the client is still sending on, which can destroy the answer before the
 * client reads it. So the answer is written whole (its Content-Length tells the client it is
 * complete, `Connection: close` not to send more on it) and the connection stays open a moment,
 * unread: TCP holds the client's upload back while it reads the answer. Then it is closed.
 */
function sendThenClose(
  req: IncomingMessage,
  res: ServerResponse,
  { contentType, text }: { contentType: string; text: string },
  status: number,
  headers: Record<string, string>,
): number {
  const length = String(Buffer.byteLength(text));
  // HTTP/2 (Vite's server with https) has no Connection header (writeHead threw on it): the answer
  // ends its own stream at once, and the connection's other streams go on.
  if (req.httpVersionMajor >= 2) {
    res.writeHead(status, { ...headers, "content-type": contentType, "content-length": length });
    res.end(text);
    return status;
  }
  res.writeHead(status, { ...headers, "content-type": contentType, "content-length": length, connection: "close" });
  res.write(text);
  const timer = setTimeout(() => res.end(), LINGER_MS);
  timer.unref();
  req.socket?.once("close", () => clearTimeout(timer));
  return status;
}
