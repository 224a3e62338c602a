// The MSW entry ("deployment-management-api/msw"): request handlers that answer every request
// under a base URL from an in-process simulator, for msw/node (Vitest, Jest), msw/browser and
// Storybook. msw is an optional peer dependency: only this entry imports it, never the client.
import { http, type HttpHandler } from "msw";
import { checkHttpUrl } from "./client/option-checks.js";

/** What the handlers need from a simulator: `createSimulator()` from "deployment-management-api/simulator" has it. */
export interface FetchingSimulator {
  fetch(request: Request): Promise<Response>;
}

export interface SimulatorHandlerOptions {
  /**
   * Where the client sends its requests, the same absolute URL as the client's `baseUrl`, such as
   * `https://api.example.test`. A path in it (`https://example.test/dms`) is taken off before the
   * simulator sees a request, since the simulator routes `/v2/...` and `/_simulator/...`.
   */
  baseUrl: string;
}

/**
 * One MSW handler for every method and path under `baseUrl`, answered by `sim.fetch`: the
 * simulator's state carries from request to request, and what it does not know it answers with
 * problem+json, as the service would.
 */
export function simulatorHandlers(sim: FetchingSimulator, { baseUrl }: SimulatorHandlerOptions): HttpHandler[] {
  if (typeof sim?.fetch !== "function") throw new TypeError("simulatorHandlers: sim must be a simulator with a fetch method, such as createSimulator()");
  const base = checkHttpUrl("simulatorHandlers", "baseUrl", baseUrl).replace(/\/+$/, "");
  const prefix = new URL(base).pathname.replace(/\/+$/, "");
  return [http.all(`${base}/*`, async ({ request }) => sim.fetch(prefix ? await withoutPrefix(request, prefix) : request))];
}

/** The same request with the base URL's path taken off the front of its path. */
async function withoutPrefix(request: Request, prefix: string): Promise<Request> {
  const url = new URL(request.url);
  url.pathname = url.pathname.slice(prefix.length) || "/";
  const hasBody = request.method !== "GET" && request.method !== "HEAD";
  return new Request(url, {
    method: request.method,
    headers: request.headers,
    body: hasBody ? await request.arrayBuffer() : null,
    signal: request.signal,
  });
}
