// The MSW entry ("deployment-management-api/msw"): request handlers that answer every request
// under a base URL from an in-process simulator, for msw/node (Vitest, Jest), msw/browser and
// Storybook. msw is an optional peer dependency: only this entry imports it, never the client.
import { HttpResponse, http, type HttpHandler } from "msw";
import { checkHttpUrl } from "./client/option-checks.js";
import { openApiDocument } from "./shared/document.js";
import { ERROR_SHAPES, type ErrorShape } from "./shared/problems.js";
import { inServiceShape, PROBLEM_JSON } from "./simulator/core/reply.js";
import { isControlPath, parameterPlaces } from "./simulator/core/router.js";
import { describeOperations } from "./simulator/core/validate.js";

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
  /**
   * "service": error answers in the service's own FastAPI shapes (`{"detail": "…"}`, a 422's
   * `{"detail": [{loc, msg, type}]}`, application/json), as `createSimulator({ errors: "service" })`
   * answers them; default "problem" (application/problem+json). The control API keeps problem+json.
   */
  errors?: ErrorShape;
}

/**
 * One MSW handler for every method and path under `baseUrl`, answered by `sim.fetch`: the
 * simulator's state carries from request to request, and what it does not know it answers with
 * problem+json, as the service would.
 */
export function simulatorHandlers(sim: FetchingSimulator, { baseUrl, errors = "problem" }: SimulatorHandlerOptions): HttpHandler[] {
  if (typeof sim?.fetch !== "function") throw new TypeError("simulatorHandlers: sim must be a simulator with a fetch method, such as createSimulator()");
  const base = checkHttpUrl("simulatorHandlers", "baseUrl", baseUrl).replace(/\/+$/, "");
  if (!ERROR_SHAPES.includes(errors)) throw new TypeError(`simulatorHandlers: errors must be "problem" or "service", not ${JSON.stringify(errors)}`);
  const prefix = new URL(base).pathname.replace(/\/+$/, "");
  // The base URL itself and every path under it, matched without decoding the path: MSW's `${base}/*`
  // decodes what the wildcard takes, and a `%` that does not decode (`/v2/deployments/%zz`) threw in
  // MSW's lookup, a 500 with a stack trace, where every server answers the simulator's 400. No capture
  // group, so nothing is decoded; case-insensitive, as MSW matches a path given as a string.
  const underBase = new RegExp(`^${base.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?:/.*)?$`, "i");
  return [
    http.all(underBase, async ({ request }) => {
      const forwarded = prefix ? await withoutPrefix(request, prefix) : request;
      // A fetch that rejects is a network error (a "drop" fault asked for): the caller's fetch rejects
      // too. Thrown from the handler, MSW answered it as a 500 carrying the error's stack.
      const response = await sim.fetch(forwarded).catch(() => undefined);
      if (!response) return HttpResponse.error();
      return errors === "service" ? inServiceShapeResponse(response, new URL(forwarded.url).pathname) : response;
    }),
  ];
}

let places: ((name: string) => string | undefined) | undefined;
/** A problem+json answer in the service's shape (the simulator's own conversion, src/simulator/core/reply.ts); any other answer as it is. */
async function inServiceShapeResponse(response: Response, path: string): Promise<Response> {
  if (isControlPath(path) || !(response.headers.get("content-type") ?? "").startsWith(PROBLEM_JSON)) return response;
  places ??= parameterPlaces(describeOperations(openApiDocument));
  const headers = new Headers(response.headers);
  headers.set("content-type", "application/json");
  // A HEAD's answer has no body to convert (reading one as JSON threw: a 500 from MSW, with a stack trace).
  const text = await response.text();
  if (text === "") return new Response(null, { status: response.status, statusText: response.statusText, headers });
  const reply = inServiceShape({ status: response.status, contentType: PROBLEM_JSON, body: JSON.parse(text) }, places);
  return new Response(JSON.stringify(reply.body), { status: response.status, statusText: response.statusText, headers });
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
