// One request to the simulator's core from a node:http server, through the local-server gate: the
// one path of the simulator's own port (http.ts) and of the Vite plugin's prefix. The gate admits it
// (Host, CORS, cross-site writes, the request target, a declared body over the bound: 413) and reads
// its body within the bound; past the bound the gate answers 413 and closes the connection itself,
// so the core's own 413 for that read is not sent again. Every other answer is the core's reply,
// sent with the gate's CORS headers, or no answer at all for a dropped connection asked for as a fault.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { NodeGate } from "../../local-server/node-gate.js";
import { headerValue, sendAnswer } from "../../local-server/node-gate.js";
import type { Router, SimRequest } from "../core/router.js";
import { problem, replyBody, type Reply } from "../core/reply.js";

export interface SimulatorExchange {
  gate: NodeGate;
  handle: Router;
  /** From the `checkContinue` event: the go-ahead is given only to a request the gate admits. */
  expectsContinue?: boolean;
  /** The target the core routes when it is not `req.url`: the Vite plugin's, after its prefix. */
  target?: string;
  /** A header's value for a request that has none (the Vite plugin's default API key); null for none. */
  missingHeader?: (name: string) => string | null;
  /** Headers every reply of the core carries besides CORS (the Vite plugin's `cache-control: no-store`). */
  replyHeaders?: Record<string, string>;
  /** A line for each request: method, target, status, time. */
  log?: (line: string) => void;
  /** What the core threw; the client is told only that the simulator failed. */
  logError?: (error: unknown) => void;
}

const decoder = new TextDecoder();

/** Serves one request; every outcome (an answer, a refusal, a dropped connection) is handled here. */
export function serveSimulatorRequest(req: IncomingMessage, res: ServerResponse, exchange: SimulatorExchange): void {
  const { gate, log } = exchange;
  const started = log ? performance.now() : 0;
  const admitted = gate.admit(req, res, exchange.expectsContinue, exchange.target);
  if (!admitted) {
    log?.(`${req.method} ${req.url} ${res.statusCode} (gate)`);
    return;
  }
  const done = (reply: Reply) => {
    // A dropped connection (a fault asked for with POST /_simulator/faults): no answer at all.
    if (reply.drop) {
      log?.(`${req.method} ${req.url} dropped (fault)`);
      req.socket.destroy();
      return;
    }
    // Answered already: the gate's 413 for a body past the bound.
    if (!res.headersSent) {
      const headers = { ...admitted.cors, ...exchange.replyHeaders, ...reply.headers };
      sendAnswer(res, reply.status, headers, replyBody(reply), reply.contentType ?? "application/json");
    }
    log?.(`${req.method} ${req.url} ${res.statusCode} ${(performance.now() - started).toFixed(1)}ms`);
  };
  const failed = (error: unknown) => {
    exchange.logError?.(error);
    if (res.headersSent) res.destroy();
    else done(problem("internal", "The simulator failed to handle the request.", admitted.path));
  };
  const request: SimRequest = {
    method: admitted.method,
    target: admitted.target,
    header: (name) => headerValue(req, name) ?? exchange.missingHeader?.(name) ?? null,
    text: async (limit) => {
      const read = await gate.readBody(req, res, admitted, limit);
      return read.ok ? decoder.decode(read.bytes) : null;
    },
  };
  let reply: Reply | Promise<Reply>;
  try {
    reply = exchange.handle(request);
  } catch (error) {
    failed(error);
    return;
  }
  if (reply instanceof Promise) reply.then(done, failed);
  else done(reply);
}
