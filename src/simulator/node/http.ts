// The node:http adapter: serves a core handler on a port, each request through serve.ts (the
// local-server gate, then the core), the same path the Vite plugin's prefix takes.
import { createServer, type Server } from "node:http";
import { serverOptions, type TimeBounds } from "../../local-server/listen.js";
import { createNodeGate } from "../../local-server/node-gate.js";
import type { LocalServerPolicy } from "../../gate/policy.js";
import { refusalWriter, type Router } from "../core/router.js";
import type { ErrorShape } from "../../shared/problems.js";
import { serveSimulatorRequest } from "./serve.js";

export interface NodeServerOptions {
  handle: Router;
  policy: LocalServerPolicy;
  log: ((line: string) => void) | undefined;
  /** The address the server listens on; a name it answers to too, unless a wildcard. */
  listenHost?: string;
  /** How long a client may take to send a request; SERVER_TIME_BOUNDS by default. */
  timeBounds?: Partial<TimeBounds> | undefined;
  /** The simulator's `errors`: the gate's own refusals are written in that shape too. */
  errors?: ErrorShape | undefined;
}

export function createNodeServer({ handle, policy, log, listenHost, timeBounds, errors = "problem" }: NodeServerOptions): Server {
  const writeProblem = refusalWriter(errors);
  const gate = createNodeGate({
    policy,
    serverName: "simulator",
    ...(listenHost !== undefined ? { listenHost } : {}),
    ...(writeProblem ? { writeProblem } : {}),
  });
  const logError = (error: unknown) => log?.(`error: ${(error as Error)?.stack ?? String(error)}`);
  const server = createServer(serverOptions(timeBounds), (req, res) => serveSimulatorRequest(req, res, { gate, handle, log, logError }));
  // A client that asks before uploading (Expect: 100-continue, as curl does for large bodies) is
  // told to go on only when the gate lets the request through; otherwise its answer (a 413, a 403)
  // comes instead and the body is never sent.
  server.on("checkContinue", (req, res) => serveSimulatorRequest(req, res, { gate, handle, log, logError, expectsContinue: true }));
  gate.answerUnreadable(server);
  return server;
}
