// The servers a generated case is sent to, each behind one `send`: the simulator in-process
// (createSimulator().fetch), the simulator over HTTP (startSimulator on port 0) and the mock as
// `npm start` runs it (a child process). Requests go out as raw as node:http allows: header lines
// in the given order and case, repeated names kept, the body's exact bytes.
import http from "node:http";
import { createSimulator, type Simulator } from "../../../src/simulator/core/index.js";
import { startSimulator, type RunningSimulator } from "../../../src/simulator/node/index.js";
import { startMockProcess, type MockProcess } from "../../mock/support.js";

/** One request, as it goes on the wire. */
export interface WireRequest {
  method: string;
  /** The request target: path and query, already encoded. */
  target: string;
  /** Header lines in order; a name may repeat. */
  headers: [string, string][];
  body?: Uint8Array;
}

export interface Answer {
  status: number;
  /** Content-Type, or "" when there is none. */
  contentType: string;
  text: string;
}

export interface Target {
  name: string;
  send(request: WireRequest): Promise<Answer>;
  /** Whether the server still answers (its process is alive and a plain GET gets 200). */
  alive(): Promise<boolean>;
  close(): Promise<void>;
}

const ANSWER_TIMEOUT_MS = 15_000;
const PROBE = { method: "GET", target: "/v2/listeners", headers: [["x-api-key", "dev"]] as [string, string][] };

/** One request over HTTP/1.1 to `base`, a fresh connection each time; the answer's headers as node:http read them. */
export function sendHttp(base: string, request: WireRequest): Promise<Answer & { headers: http.IncomingHttpHeaders }> {
  const url = new URL(base);
  // With headers as a list, node:http adds no Host line: send the one a client would.
  const flat: string[] = ["Host", url.host];
  for (const [name, value] of request.headers) flat.push(name, value);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: url.hostname,
      port: url.port,
      method: request.method,
      path: request.target,
      headers: flat,
      agent: false,
      timeout: ANSWER_TIMEOUT_MS,
    });
    req.on("timeout", () => req.destroy(new Error(`no answer within ${ANSWER_TIMEOUT_MS} ms`)));
    req.on("error", reject);
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("error", reject);
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          contentType: String(res.headers["content-type"] ?? ""),
          text: Buffer.concat(chunks).toString("utf8"),
          headers: res.headers,
        }),
      );
    });
    req.end(request.body ? Buffer.from(request.body) : undefined);
  });
}

export function inProcessTarget(simulator: Simulator = createSimulator()): Target & { simulator: Simulator } {
  return {
    name: "simulator in-process",
    simulator,
    async send(request) {
      const headers = new Headers();
      for (const [name, value] of request.headers) headers.append(name, value);
      const init: RequestInit = { method: request.method, headers };
      if (request.body) init.body = request.body as BodyInit;
      const response = await simulator.fetch(`http://127.0.0.1${request.target}`, init);
      return { status: response.status, contentType: response.headers.get("content-type") ?? "", text: await response.text() };
    },
    async alive() {
      return (await this.send(PROBE)).status === 200;
    },
    close: () => simulator.close(),
  };
}

export async function httpSimulatorTarget(): Promise<Target & { running: RunningSimulator }> {
  const running = await startSimulator({ port: 0, quiet: true });
  return {
    name: "simulator over HTTP",
    running,
    send: (request) => sendHttp(running.url, request),
    async alive() {
      return (await sendHttp(running.url, PROBE).catch(() => undefined))?.status === 200;
    },
    close: () => running.close(),
  };
}

export async function mockTarget(): Promise<Target & { process: MockProcess }> {
  const mock = await startMockProcess();
  return {
    name: "mock (npm start)",
    process: mock,
    send: (request) => sendHttp(mock.baseUrl, request),
    async alive() {
      if (mock.child.exitCode !== null || mock.child.signalCode !== null) return false;
      return (await sendHttp(mock.baseUrl, PROBE).catch(() => undefined))?.status === 200;
    },
    close: () => mock.stop(),
  };
}
