// What `npm start` serves: a node:http front on Prism's engine (prism.ts, in-process, on no port of
// its own). The front makes the mock answer like the simulator and keeps it safe on a developer's
// machine:
// - the local-server gate (src/gate/gate.ts and node-gate.ts), the one the simulator uses:
//   Host names, CORS, cross-site writes, the request target, 413 before the body is read (before a
//   100-continue go-ahead too), the route (404, 405 with Allow), the API key's presence, the body's
//   media type (415, also for a Content-Type that is not one media type), malformed JSON (400; a
//   leading byte-order mark ignored), and a single-valued query parameter given twice (422);
// - bounded requests: a body nested too deep, with too long strings or arrays, or with numbers
//   JSON cannot hold (1e309) is refused (422) before Prism sees it;
// - every error as the simulator's problem details (answers.ts): Prism's violations rebuilt into
//   `errors` with `code`s, Prism's own errors without internals;
// - a GET by one of the document's example ids answers that example, and a list page holds no more
//   than `limit` items (examples.ts);
// - `Prefer: dynamic=true` that Prism cannot fake falls back to the document's example;
// - an X-Tenant-Id that is not a tenant id is a field error, as in the simulator;
// - no request stops it: whatever fails while answering is a 500 problem, and the process goes on.
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { RequestBounds } from "../gate/bounds.js";
import { checkJsonBounds } from "../gate/bounds.js";
import {
  isEmptyBodyText,
  missingApiKeyProblem,
  parseJsonText,
  parseMediaType,
  RouteTable,
  repeatedParameterErrors,
  unsupportedMediaType,
} from "../gate/gate.js";
import { listen, serverOptions, type TimeBounds } from "../local-server/listen.js";
import { createNodeGate, headerValue, type NodeGate, sendAnswer, sendProblem } from "../local-server/node-gate.js";
import { corsHeaders, isJsonContentType } from "../gate/policy.js";
import { checkPortOption } from "../shared/port.js";
import { type ParameterShape, parameterValueErrors, queryText } from "../gate/parameter-values.js";
import { checkTenantHeader } from "../gate/tenant.js";
import { invalidFieldsDetail, problemDetails } from "../shared/problems.js";
import { type BodyWas, type PrismAnswer, problemFor, requestViolations, violationsHeader, withFieldErrors } from "./answers.js";
import { parameterShape, queryOf } from "./query.js";
import { exampleForPath, pageWithinLimit } from "./examples.js";
import { createPrism, type PrismEngine, type PrismOperation, type PrismResult } from "./prism.js";

// Prism fakes data for `dynamic=true` with json-schema-faker, which fails on some of the document's
// schemas at random (about 4 tries in 10 on a deployment); after this many tries the example is sent.
const DYNAMIC_TRIES = 3;
// Headers of a request that say it has a body: not passed to Prism for an operation that takes none.
const BODY_HEADERS = ["content-length", "transfer-encoding", "content-type"];
// Headers of Prism's answer that are the front's to set.
const NOT_PASSED_ON = new Set(["connection", "keep-alive", "transfer-encoding", "upgrade", "proxy-connection", "content-length", "sl-violations"]);

export interface MockOptions {
  /** A path to an OpenAPI document, or the parsed document. Defaults to generated/openapi.json. */
  document?: string | object;
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  /** A pino level for Prism's log and the front's request lines: "silent" (default), "info", "debug". */
  logLevel?: string;
  /** Host names answered besides localhost, 127.0.0.1, [::1] and *.localhost (`--allowed-host`). */
  allowedHosts?: string[];
  /** Origins given CORS access besides loopback ones (`--cors-origin`). */
  corsOrigins?: string[];
  /** Request bounds; REQUEST_BOUNDS by default. */
  bounds?: RequestBounds;
  /** How long a client may take to send a request; SERVER_TIME_BOUNDS by default (tests give shorter ones). */
  timeBounds?: Partial<TimeBounds>;
}

export interface RunningMock {
  baseUrl: string;
  close(): Promise<void>;
}

interface Context {
  gate: NodeGate;
  prism: PrismEngine;
  routes: RouteTable<PrismOperation>;
}

/** Starts the mock: Prism's engine and the front on `port`/`host`. */
export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  checkPortOption("startMock", options.port);
  const { port = 0, host = "127.0.0.1", logLevel = "silent", document, allowedHosts = [], corsOrigins = [], bounds } = options;
  const prism = await createPrism({ logLevel, ...(document ? { document } : {}) });
  const gate = createNodeGate({ policy: { allowedHosts, corsOrigins }, listenHost: host, serverName: "mock", ...(bounds ? { bounds } : {}) });
  const routes = new RouteTable(prism.operations.map((operation) => ({ method: operation.method, path: operation.path, value: operation })));
  const context: Context = { gate, prism, routes };
  const log = logLevel === "silent" ? undefined : (line: string) => process.stdout.write(`${line}\n`);
  const serve = (req: IncomingMessage, res: ServerResponse, expectsContinue: boolean) => {
    let answered: Promise<number>;
    try {
      answered = handle(req, res, context, expectsContinue);
    } catch (error) {
      answered = Promise.reject(error);
    }
    answered.then(
      (status) => log?.(`${req.method} ${req.url} -> ${status}`),
      (error) => {
        log?.(`${req.method} ${req.url} failed: ${(error as Error)?.stack ?? error}`);
        if (res.headersSent) {
          res.destroy();
          return;
        }
        try {
          sendProblem(res, problemDetails("internal", "The mock failed to answer this request.", pathOf(req)), corsHeaders(req.headers.origin, gate.policy));
        } catch {
          res.destroy();
        }
      },
    );
  };
  const server = http.createServer(serverOptions(options.timeBounds), (req, res) => serve(req, res, false));
  // `Expect: 100-continue` (curl sends it with large bodies): the go-ahead is given only when the
  // request passes the gate, so a refused upload is never sent.
  server.on("checkContinue", (req, res) => serve(req, res, true));
  // A request Node cannot parse: a 400 problem, as from the simulator.
  gate.answerUnreadable(server);
  const listening = await listen(server, port, host);
  return { baseUrl: listening.url, close: listening.close };
}

/** Answers one request; resolves to the status sent. */
async function handle(req: IncomingMessage, res: ServerResponse, { gate, prism, routes }: Context, expectsContinue: boolean): Promise<number> {
  const admitted = gate.admit(req, res, expectsContinue);
  if (!admitted) return res.statusCode;
  const { path, method, cors } = admitted;
  const route = routes.match(path, method);
  if (!route.found)
    return "options" in route ? sendAnswer(res, 204, { ...cors, ...route.headers }, "") : sendProblem(res, route.problem, { ...cors, ...route.headers });
  const operation = route.value;
  const apiKey = headerValue(req, "x-api-key");
  const unauthorized = missingApiKeyProblem(apiKey, path);
  if (unauthorized) return sendProblem(res, unauthorized, cors);

  // The body, as the simulator reads it: only for an operation that takes one, in a media type it lists.
  const listed = (operation.request?.body?.contents ?? []).map((content) => content.mediaType.toLowerCase());
  let body: unknown = null;
  let bodyWas: BodyWas = "empty";
  const contentType = headerValue(req, "content-type");
  const refused = listed.length > 0 ? unsupportedMediaType(listed, contentType, path) : undefined;
  // With a Content-Type, refused before the body is read; without one, only a body that is not empty is.
  if (refused && contentType?.trim()) return sendProblem(res, refused, cors);
  if (gate.hasBody(req)) {
    const read = await gate.readBody(req, res, admitted);
    if (!read.ok) return res.statusCode;
    const text = new TextDecoder().decode(read.bytes);
    if (refused && !isEmptyBodyText(text)) return sendProblem(res, refused, cors);
    if (listed.length > 0 && !isEmptyBodyText(text)) {
      const parsed = parseJsonText(text, path);
      if ("problem" in parsed) return sendProblem(res, parsed.problem, cors);
      const outOfBounds = checkJsonBounds(parsed.value, gate.bounds);
      if (outOfBounds.length > 0) return sendProblem(res, problemDetails("validation", invalidFieldsDetail(outOfBounds.length), path, outOfBounds), cors);
      body = parsed.value;
      bodyWas = body === null ? "null" : "value";
    }
  }

  const q = admitted.target.indexOf("?");
  const search = new URLSearchParams(q < 0 ? "" : admitted.target.slice(q + 1));
  const singleValued = (operation.request?.query ?? []).filter((p) => p.schema?.type !== "array").map((p) => p.name);
  const repeated = repeatedParameterErrors(search, singleValued);
  const given = new Set(repeated.map((e) => e.parameter));
  // Every path and query value by the simulator's rule, in the document's order: Prism reads `name=`
  // as absent and a repeated list as its first item, and names path parameters after query ones.
  const shapes = [
    ...(operation.request?.path ?? []).map((p) => parameterShape(p, "path")),
    ...(operation.request?.query ?? []).map((p) => parameterShape(p, "query")),
  ];
  const textOf = (shape: ParameterShape) => (shape.in === "path" ? route.pathValues[shape.name] : queryText(search, shape));
  const parameterErrors = operation.iid ? [...repeated, ...parameterValueErrors(operation.iid, shapes, textOf, given)] : repeated;
  const query = queryOf(search, given);
  const headers = headersOf(req);
  // The simulator answers in its one media type whatever Accept says, and reads no body of an
  // operation that takes none: Prism would answer a 406 the document does not list, and refuse a
  // GET's body (422). Prism is told neither.
  delete headers.accept;
  if (listed.length === 0) for (const name of BODY_HEADERS) delete headers[name];
  if (isJsonContentType(contentType) && "mediaType" in parseMediaType(contentType)) {
    // Read as UTF-8 already; a charset parameter means nothing to Prism's validation.
    headers["content-type"] = (parseMediaType(contentType) as { mediaType: string }).mediaType;
  }
  if (headers.prefer === undefined) {
    const example = exampleForPath(operation, route.pathValues);
    if (example) headers.prefer = `example=${example}`;
  }
  const request = { method: method === "HEAD" ? "GET" : method, path, query, headers, body };
  const result = await answerFromPrism(prism, request);
  const answer: PrismAnswer = { status: result.status, ...(result.error ? { problem: result.error } : {}), violations: requestViolations(result.violations) };
  let problem = problemFor(answer, { method, path, ...(contentType !== null ? { contentType } : {}), bodyWas });
  const checked = new Set(operation.iid ? shapes.map((shape) => shape.name) : given);
  problem = withFieldErrors(problem, answer.status, parameterErrors, checked, checkTenantHeader(headerValue(req, "x-tenant-id")), path);
  if (problem) {
    const debug = violationsHeader(result.violations);
    const authenticate = result.headers["www-authenticate"];
    return sendProblem(res, problem, { ...cors, ...(debug ? { "sl-violations": debug } : {}), ...(authenticate ? { "www-authenticate": authenticate } : {}) });
  }
  const passed: Record<string, string> = {};
  for (const [name, value] of Object.entries(result.headers)) if (!NOT_PASSED_ON.has(name)) passed[name] = value;
  const payload = result.status === 200 ? pageWithinLimit(operation, query, result.body) : result.body;
  const text = payload === undefined ? "" : typeof payload === "string" ? payload : JSON.stringify(payload);
  return sendAnswer(res, result.status, { ...passed, ...cors }, text);
}

/**
 * Prism's answer; with `Prefer: dynamic=true`, a failure to fake data is retried, then answered
 * with the document's example (the same request without `dynamic=true`).
 */
async function answerFromPrism(prism: PrismEngine, request: Parameters<PrismEngine["request"]>[0]): Promise<PrismResult> {
  const prefer = request.headers.prefer;
  const dynamic = typeof prefer === "string" && /(^|[,;\s])dynamic\s*=\s*true\b/i.test(prefer);
  for (let attempt = 1; ; attempt++) {
    const result = await prism.request(request);
    if (!dynamic || result.status < 500 || !result.error) return result;
    if (attempt < DYNAMIC_TRIES) continue;
    const staticPrefer = prefer
      .replace(/(^|,)\s*dynamic\s*=\s*true\s*(?=,|$)/i, "")
      .replace(/^\s*,\s*/, "")
      .trim();
    const { prefer: _dropped, ...headers } = request.headers;
    return prism.request({ ...request, headers: staticPrefer === "" ? headers : { ...headers, prefer: staticPrefer } });
  }
}

function headersOf(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
  return headers;
}

function pathOf(req: IncomingMessage): string {
  const url = req.url ?? "/";
  const q = url.indexOf("?");
  return q < 0 ? url : url.slice(0, q);
}
