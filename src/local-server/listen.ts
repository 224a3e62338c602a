// One way every local server (the mock, the simulator, the docs server, `dms mcp --port`) listens,
// says where, and stops, so that each meets the same mistakes alike:
// - the node:http options bound how long a client may take to send a request (SERVER_TIME_BOUNDS,
//   or shorter bounds a test gives);
// - a port in use is one line that names the port and how to choose another, exit 1;
// - a close ends every connection at once, idle or half-sent, so a stop never waits on a client;
// - SIGINT, SIGTERM, or the npm process that started the server going away (npm does not pass a
//   SIGTERM on to its script), stop it within a second; a second signal ends it at once.
// It imports nothing relative, so `npm run docs` (tools/docs/serve.ts, run by Node as TypeScript) can import it.
import type { Server, ServerOptions } from "node:http";
import type { AddressInfo } from "node:net";
// A type-only import: Node strips it with the types, so this file still imports nothing at run time.
import type { TimeBounds } from "../gate/bounds.js";

/**
 * The time bounds every local server sets on its node:http server (the simulator's port, the mock's
 * front, the docs server, dms mcp --port), so a client that trickles bytes cannot hold a connection:
 * its request headers must arrive within 5 s (a connection that sends nothing is closed then too),
 * and the whole request within 15 s (a body is at most 1 MiB: 0.6 Mbit/s), checked every second.
 * They bound receiving a request only; an answer that takes longer (a deploy an MCP client waits
 * for) is not cut.
 */
export const SERVER_TIME_BOUNDS = Object.freeze({ headersTimeout: 5_000, requestTimeout: 15_000, connectionsCheckingInterval: 1_000 });

export type { TimeBounds };

/** The node:http options of a local server: SERVER_TIME_BOUNDS, with any bound given instead. */
export function serverOptions(bounds: Partial<TimeBounds> = {}): ServerOptions {
  return { ...SERVER_TIME_BOUNDS, ...bounds };
}

/** The port asked for is taken by another process. */
export class PortInUseError extends Error {
  override readonly name = "PortInUseError";
  readonly code = "EADDRINUSE";
  readonly port: number;
  readonly host: string;
  // No parameter properties: Node runs this file as TypeScript for `npm run docs`, by stripping types only.
  constructor(port: number, host: string) {
    super(`port ${port} on ${host} is in use`);
    this.port = port;
    this.host = host;
  }
}

export interface Listening {
  port: number;
  /** http://host:port, with an IPv6 address in brackets. */
  url: string;
  /** Stops listening and ends every connection, idle or half-sent, at once. */
  close(): Promise<void>;
}

export function urlOf(host: string, port: number): string {
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}

/** Listens on host:port (0 picks a free port); a port in use rejects with PortInUseError. */
export async function listen(server: Server, port: number, host: string): Promise<Listening> {
  await new Promise<void>((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => reject(error.code === "EADDRINUSE" ? new PortInUseError(port, host) : error);
    server.once("error", failed);
    server.listen(port, host, () => {
      server.off("error", failed);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  // A wildcard (0.0.0.0, ::) is no address to call: the URL names the address bound instead.
  const shown = host === "0.0.0.0" || host === "::" ? address.address : host;
  return {
    port: address.port,
    url: urlOf(shown, address.port),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The one line a command line prints for a port in use; `how` is how its user chooses another (`--port`, `PORT`). */
export function portInUseLine(name: string, port: number, how: string): string {
  return `${name}: port ${port} is in use; choose another with ${how}`;
}

/** A close that takes longer than this (a handler that does not end) is cut short by exiting. */
const STOP_WITHIN_MS = 900;
/** How often the parent is checked: npm, gone, leaves this process re-parented. */
const PARENT_CHECK_MS = 50;

/**
 * Runs `close` and exits 0 on SIGINT or SIGTERM, or when the npm process that started this one is
 * gone; a second signal exits at once (130). Within a second in every case.
 */
export function stopOnSignals(close: () => Promise<void>, env: NodeJS.ProcessEnv = process.env): void {
  let stopping = false;
  const stop = () => {
    if (stopping) process.exit(130);
    stopping = true;
    setTimeout(() => process.exit(0), STOP_WITHIN_MS).unref();
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  // `npm start`, `npm run simulate`, `npm run docs`: a SIGTERM to npm does not reach this process.
  if (env.npm_lifecycle_event) {
    const parent = process.ppid;
    setInterval(() => {
      if (process.ppid !== parent) stop();
    }, PARENT_CHECK_MS).unref();
  }
}
