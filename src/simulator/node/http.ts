// The node:http adapter: serves a core handler on a port behind the local-server gate
// (src/local-server/node-gate.ts), the same gate the mock's front uses: the Host check against DNS
// rebinding, CORS for loopback origins (and the ones configured), no state-changing request from
// another site, a request target that is a path, and bodies over the bound refused with 413
// before they are read in full (before a 100-continue go-ahead too).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { readBodyWithin } from "../../local-server/body.js";
import { createNodeGate, sendAnswer, sendThenClose } from "../../local-server/node-gate.js";
import type { LocalServerPolicy } from "../../local-server/policy.js";
import type { Router, SimRequest } from "../core/router.js";
import { problem, replyBody, type Reply } from "../core/reply.js";

export interface NodeServerOptions {
  handle: Router;
  policy: LocalServerPolicy;
  log: ((line: string) => void) | undefined;
  /** The address the server listens on; a name it answers to too, unless a wildcard. */
  listenHost?: string;
}

const decoder = new TextDecoder();

export function createNodeServer({ handle, policy, log, listenHost }: NodeServerOptions): Server {
  const gate = createNodeGate({ policy, serverName: "simulator", ...(listenHost !== undefined ? { listenHost } : {}) });
  const serve = (req: IncomingMessage, res: ServerResponse, expectsContinue: boolean) => {
    const started = log ? performance.now() : 0;
    const admitted = gate.admit(req, res, expectsContinue);
    if (!admitted) {
      log?.(`${req.method} ${req.url} ${res.statusCode} (gate)`);
      return;
    }
    const { path, cors } = admitted;
    let tooLarge = false;
    const done = (reply: Reply) => {
      // A dropped connection (a fault asked for with POST /_simulator/faults): no answer at all.
      if (reply.drop) {
        log?.(`${req.method} ${req.url} dropped (fault)`);
        req.socket.destroy();
        return;
      }
      if (tooLarge && reply.status === 413) sendThenClose(req, res, reply.body as Parameters<typeof sendThenClose>[2], cors);
      else sendAnswer(res, reply.status, { ...cors, ...reply.headers }, replyBody(reply), reply.contentType ?? "application/json");
      log?.(`${req.method} ${req.url} ${reply.status} ${(performance.now() - started).toFixed(1)}ms`);
    };
    const failed = (error: unknown) => {
      log?.(`error: ${(error as Error).stack ?? String(error)}`);
      done(problem("internal", "The simulator failed to handle the request.", path));
    };
    const request: SimRequest = {
      method: admitted.method,
      target: req.url ?? "/",
      header: (name) => {
        const value = req.headers[name];
        return value === undefined ? null : Array.isArray(value) ? value.join(",") : value;
      },
      text: async (limit) => {
        const read = await readBodyWithin(req, Math.min(limit, gate.bounds.maxBodyBytes));
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
    if (reply instanceof Promise) reply.then(done, failed);
    else done(reply);
  };
  const server = createServer((req, res) => serve(req, res, false));
  // A client that asks before uploading (Expect: 100-continue, as curl does for large bodies) is
  // told to go on only when the gate lets the request through; otherwise its answer (a 413, a 403)
  // comes instead and the body is never sent.
  server.on("checkContinue", (req, res) => serve(req, res, true));
  return server;
}
