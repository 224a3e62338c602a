// A thin node:http front in front of Prism: what `npm start` serves. It makes the mock answer like
// the simulator and keeps it safe on a developer's machine:
// - the local-server rules (src/local-server/): only loopback Host names (no DNS rebinding), CORS
//   only for loopback origins, no write from another site's page, options to add names and origins;
// - bounded requests: a body over the size bound is refused (413) before it is read in full, and a
//   body nested too deep, with too long strings or arrays, or with numbers JSON cannot hold (1e309)
//   is refused (422) before Prism sees it;
// - every error as the simulator's problem details (scripts/prism-answers.mjs): malformed JSON,
//   Prism's violations rebuilt into `errors` with `code`s, Prism's own errors without internals;
// - `Prefer: dynamic=true` that Prism cannot fake falls back to the document's example;
// - an X-Tenant-Id that is not a tenant id is a field error, as in the simulator (Prism only sees
//   a security scheme there);
// - a path with broken percent-encoding is refused here: it crashes Prism's process.
// `npm start` serves this; tests use it via startPrism({ front: true }) or startMock.
import http from "node:http";
import { startPrismServer } from "./prism-server.mjs";
import { isPrismError, problemFor, requestViolations } from "./prism-answers.mjs";
import { declaresTooLarge, readBodyWithin, tooLargeDetail } from "../dist/local-server/body.js";
import { checkJsonBounds, REQUEST_BOUNDS } from "../dist/local-server/bounds.js";
import { corsHeaders, isAllowedHost, isCrossSiteWrite, isJsonContentType, isPreflight, preflightHeaders } from "../dist/local-server/policy.js";
import { checkTenantHeader } from "../dist/local-server/tenant.js";
import { invalidFieldsDetail, PROBLEM_TYPES, problemDetails } from "../dist/shared/problems.js";

// Prism fakes data for `dynamic=true` with json-schema-faker, which fails on some of the document's
// schemas at random (about 4 tries in 10 on a deployment); after this many tries the example is sent.
const DYNAMIC_TRIES = 3;
const WILDCARD_HOSTS = new Set(["0.0.0.0", "::", "[::]"]);
// How long the connection of a refused upload stays open, unread, after the 413 (see sendThenClose).
const LINGER_MS = 1000;
// Headers that belong to one connection, not to the answer relayed from Prism.
const HOP_BY_HOP = ["connection", "keep-alive", "transfer-encoding", "upgrade", "proxy-connection"];

/**
 * Starts Prism on a free loopback port and the front on `port`/`host`.
 * @param {import("./mock-front.d.mts").MockOptions} [options]
 * @returns {Promise<import("./mock-front.d.mts").RunningMock>}
 */
export async function startMock(options = {}) {
  const { port = 0, host = "127.0.0.1", logLevel = "silent", document, allowedHosts = [], corsOrigins = [], bounds = REQUEST_BOUNDS } = options;
  // Prism's own CORS answers any origin with credentials: the front answers CORS itself.
  const prism = await startPrismServer({ port: 0, host: "127.0.0.1", logLevel, cors: false, ...(document ? { document } : {}) });
  const upstream = new URL(prism.baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const log = logLevel === "silent" ? undefined : (line) => process.stdout.write(`${line}\n`);
  // The address it listens on is a name it answers to (HOST=192.168.1.5), unless it is a wildcard.
  const ownHost = WILDCARD_HOSTS.has(host) ? [] : [host.includes(":") && !host.startsWith("[") ? `[${host}]` : host];
  const context = { upstream, agent, policy: { allowedHosts: [...allowedHosts, ...ownHost], corsOrigins }, bounds, log, routeOf: routes(prism.operations) };
  const serve = (req, res, expectsContinue = false) => {
    handle(req, res, context, expectsContinue).then(
      (status) => log?.(`${req.method} ${req.url} -> ${status}`),
      (error) => {
        log?.(`${req.method} ${req.url} failed: ${error?.stack ?? error}`);
        if (!res.headersSent)
          send(res, problemDetails("internal", "The mock failed to answer this request.", pathOf(req)), corsHeaders(req.headers.origin, context.policy));
        else res.destroy();
      },
    );
  };
  const server = http.createServer(serve);
  // `Expect: 100-continue` (curl sends it with large bodies): the client waits for a go-ahead, which
  // is given only when the request passes the checks before its body, so a refused upload is never sent.
  server.on("checkContinue", (req, res) => serve(req, res, true));
  try {
    await new Promise((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, host, () => resolve(undefined));
    });
  } catch (error) {
    await prism.close();
    throw error;
  }
  const address = /** @type {import("node:net").AddressInfo} */ (server.address());
  const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    baseUrl: `http://${shownHost}:${address.port}`,
    prismUrl: prism.baseUrl,
    async close() {
      await new Promise((resolve) => {
        server.close(() => resolve(undefined));
        server.closeAllConnections();
      });
      agent.destroy();
      await prism.close();
    },
  };
}

/** Answers one request; resolves to the status sent. */
async function handle(req, res, { upstream, agent, policy, bounds, routeOf }, expectsContinue) {
  const path = pathOf(req);
  const method = req.method ?? "GET";
  const origin = req.headers.origin;
  // A foreign Host gets nothing else, CORS headers included.
  if (!isAllowedHost(req.headers.host, policy)) return send(res, foreignHost(req.headers.host, path));
  const cors = corsHeaders(origin, policy);
  if (isPreflight(method, req.headers)) {
    const headers = preflightHeaders(origin, req.headers["access-control-request-headers"], policy, req.headers["access-control-request-private-network"]);
    res.writeHead(204, { ...headers, "content-length": "0" });
    res.end();
    return 204;
  }
  const refused = refusedBeforeBody(req, method, path, policy);
  if (refused) return send(res, refused, cors);

  let body = Buffer.alloc(0);
  if (req.headers["content-length"] !== undefined || req.headers["transfer-encoding"] !== undefined) {
    const tooLarge = () => sendThenClose(req, res, problemDetails("content-too-large", tooLargeDetail(bounds.maxBodyBytes), path), cors);
    if (declaresTooLarge(req.headers["content-length"], bounds.maxBodyBytes)) return tooLarge();
    if (expectsContinue) res.writeContinue();
    const read = await readBodyWithin(req, bounds.maxBodyBytes);
    if (!read.ok) return tooLarge();
    body = Buffer.from(read.bytes.buffer, read.bytes.byteOffset, read.bytes.byteLength);
  }
  const json = isJsonContentType(req.headers["content-type"]) ? checkJsonBody(body, bounds, path) : { bodyWas: body.length === 0 ? "empty" : "value" };
  if (json.problem) return send(res, json.problem, cors);

  const answer = await answerFromPrism(req, body, upstream, agent);
  const problem = withTenantError(
    problemFor(answer, { method, path, contentType: req.headers["content-type"], bodyWas: json.bodyWas }),
    answer,
    checkTenantHeader(req.headers["x-tenant-id"]),
    path,
  );
  if (!problem && answer.status < 400) {
    // Prism takes any JSON media type for a body; the simulator, like the document, only the ones listed.
    const listed = routeOf(path)?.get(method);
    const mediaType = String(req.headers["content-type"] ?? "")
      .split(";")[0]
      .trim()
      .toLowerCase();
    if (listed && listed.length > 0 && json.bodyWas !== "empty" && !listed.includes(mediaType)) {
      return send(
        res,
        problemDetails("unsupported-media-type", `Send the body as ${listed.join(" or ")}${mediaType ? `, not ${mediaType}` : ""}.`, path),
        cors,
      );
    }
  }
  if (problem?.status === 405) {
    // As the simulator says it, with the Allow header a 405 must carry.
    const allow = [...(routeOf(path)?.keys() ?? [])].join(", ");
    return send(res, { ...problem, detail: `${method} is not allowed on ${path}; allowed: ${allow}.` }, { ...cors, allow });
  }
  if (problem) return send(res, problem, { ...cors, ...passOn(answer.headers, ["sl-violations", "www-authenticate"]) });
  const headers = { ...withoutConnectionHeaders(answer.headers), ...cors, "content-length": String(answer.body.length) };
  res.writeHead(answer.status, headers);
  res.end(answer.body);
  return answer.status;
}

function foreignHost(hostHeader, path) {
  const host = String(hostHeader ?? "").slice(0, 100);
  return problemDetails(
    "forbidden",
    `This mock answers only requests addressed to localhost, 127.0.0.1 or [::1], not to "${host}" (add a name with --allowed-host).`,
    path,
  );
}

/** The problem for a request refused on its method, origin and target alone, before its body is read. */
function refusedBeforeBody(req, method, path, policy) {
  if (isCrossSiteWrite(method, req.headers, policy)) {
    const origin = String(req.headers.origin ?? "another site").slice(0, 100);
    return problemDetails("forbidden", `A page on ${origin} may not send ${method} requests to this mock (add its origin with --cors-origin).`, path);
  }
  if (!path.startsWith("/")) {
    return problemDetails("bad-request", "The request target must be a path (/v2/...), not a full URL or *.", path.slice(0, 200));
  }
  // Prism's router throws on such a path, and its process dies.
  if (hasMalformedEscape(path)) return problemDetails("bad-request", "The request path has a % that does not start a valid UTF-8 escape.", path);
  return undefined;
}

/**
 * Parses a JSON body and checks it against the bounds, before Prism sees it. `bodyWas` tells
 * Prism's "body is required" apart: Prism reads an empty body and `null` alike.
 * @returns {{ problem?: object, bodyWas: "empty" | "null" | "value" }}
 */
function checkJsonBody(body, bounds, path) {
  if (body.length === 0) return { bodyWas: "empty" };
  let value;
  try {
    value = JSON.parse(body.toString("utf8"));
  } catch (error) {
    // The simulator's words: the parser's message in `detail`, the field error says what is wrong.
    return {
      bodyWas: "value",
      problem: problemDetails("malformed-json", `The body is not valid JSON: ${error.message}`, path, [
        { pointer: "", code: "invalid_json", detail: "is not valid JSON" },
      ]),
    };
  }
  const outOfBounds = checkJsonBounds(value, bounds);
  if (outOfBounds.length > 0) return { bodyWas: "value", problem: problemDetails("validation", invalidFieldsDetail(outOfBounds.length), path, outOfBounds) };
  return { bodyWas: value === null ? "null" : "value" };
}

/**
 * Prism's answer; with `Prefer: dynamic=true`, a failure to fake data is retried, then answered
 * with the document's example (the same request without `dynamic=true`).
 */
async function answerFromPrism(req, body, upstream, agent) {
  const prefer = req.headers.prefer;
  const dynamic = typeof prefer === "string" && /(^|[,;\s])dynamic\s*=\s*true\b/i.test(prefer);
  for (let attempt = 1; ; attempt++) {
    const answer = await forward(req, body, upstream, agent, req.headers);
    if (!dynamic || answer.status < 500 || !isPrismError(answer)) return answer;
    if (attempt < DYNAMIC_TRIES) continue;
    const staticPrefer = prefer
      .replace(/(^|,)\s*dynamic\s*=\s*true\s*(?=,|$)/i, "")
      .replace(/^\s*,\s*/, "")
      .trim();
    const { prefer: _dropped, ...headers } = req.headers;
    return forward(req, body, upstream, agent, staticPrefer === "" ? headers : { ...headers, prefer: staticPrefer });
  }
}

/** Sends the request to Prism; resolves to its status, headers, raw body, parsed problem and request violations. */
function forward(req, body, upstream, agent, requestHeaders) {
  return new Promise((resolve, reject) => {
    const headers = { ...withoutConnectionHeaders(requestHeaders), host: upstream.host };
    // The body was read whole: send it with a length, whatever framing the client used.
    delete headers["content-length"];
    if (body.length > 0 || req.headers["content-length"] !== undefined) headers["content-length"] = String(body.length);
    // The front read a JSON body as UTF-8, as the simulator does; a charset parameter would make
    // Prism's body parser answer a 400 of its own (not problem+json), so it is not passed on.
    if (isJsonContentType(headers["content-type"])) headers["content-type"] = headers["content-type"].split(";")[0].trim();
    // The document has no HEAD operations; like the simulator, the mock answers HEAD as GET (without the body).
    const method = req.method === "HEAD" ? "GET" : req.method;
    const outgoing = http.request({ host: upstream.hostname, port: upstream.port, method, path: req.url, headers, agent }, (incoming) => {
      const chunks = [];
      incoming.on("data", (chunk) => chunks.push(chunk));
      incoming.on("end", () => {
        const answerBody = Buffer.concat(chunks);
        resolve({
          status: incoming.statusCode ?? 502,
          headers: incoming.headers,
          body: answerBody,
          problem: /^application\/problem\+json\b/i.test(String(incoming.headers["content-type"] ?? "")) ? parseObject(answerBody) : undefined,
          violations: requestViolations(incoming.headers["sl-violations"]),
        });
      });
      incoming.on("error", reject);
    });
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

/**
 * Adds an X-Tenant-Id that is not a tenant id to the answer, as the simulator does: the document
 * declares the header as a security scheme, so Prism only checks that an API key is there.
 * Another validation failure lists it among its errors; an answer that would succeed becomes a 422.
 */
function withTenantError(problem, answer, tenantError, path) {
  if (!tenantError) return problem;
  if (problem?.type === PROBLEM_TYPES.validation.type) {
    // After the parameters, before the body fields: the simulator's order.
    const parameters = problem.errors.filter((e) => e.parameter !== undefined);
    const fields = problem.errors.filter((e) => e.parameter === undefined);
    const errors = [...parameters, tenantError, ...fields];
    return { ...problem, detail: invalidFieldsDetail(errors.length), errors };
  }
  if (problem || answer.status >= 400) return problem;
  return problemDetails("validation", invalidFieldsDetail(1), path, [tenantError]);
}

/**
 * Answers a request whose body was not read (413), then closes its connection. Closing at once
 * would reset a connection the client is still sending on, which can destroy the answer before
 * the client reads it. So the answer is written whole (its Content-Length tells the client it is
 * complete, `Connection: close` not to send more on it) and the connection stays open a moment,
 * unread: TCP holds the client's upload back while it reads the answer. Then it is closed.
 */
function sendThenClose(req, res, problem, headers) {
  const text = JSON.stringify(problem);
  res.writeHead(problem.status, {
    ...headers,
    "content-type": "application/problem+json",
    "content-length": String(Buffer.byteLength(text)),
    connection: "close",
  });
  res.write(text);
  const timer = setTimeout(() => res.end(), LINGER_MS);
  timer.unref();
  req.socket?.once("close", () => clearTimeout(timer));
  return problem.status;
}

/**
 * The operations Prism serves, by request path: for a path, its methods (in the simulator's order)
 * and the media types each takes for a body. Path templates match `{name}` to one segment.
 * @returns {(path: string) => Map<string, string[]> | undefined}
 */
function routes(operations) {
  const order = ["GET", "PUT", "POST", "PATCH", "DELETE"];
  const byPattern = new Map();
  for (const operation of operations) {
    const pattern = `^${operation.path
      .split(/\{[^}]+\}/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
      .join("[^/]+")}$`;
    if (!byPattern.has(pattern)) byPattern.set(pattern, { regex: new RegExp(pattern), methods: new Map() });
    const mediaTypes = (operation.request?.body?.contents ?? []).map((content) => String(content.mediaType).toLowerCase());
    byPattern.get(pattern).methods.set(operation.method.toUpperCase(), mediaTypes);
  }
  for (const route of byPattern.values()) {
    route.methods = new Map([...route.methods].sort(([a], [b]) => order.indexOf(a) - order.indexOf(b)));
  }
  return (requestPath) => [...byPattern.values()].find((route) => route.regex.test(requestPath))?.methods;
}

/** Sends problem details; resolves to the status. */
function send(res, problem, headers = {}) {
  const text = JSON.stringify(problem);
  res.writeHead(problem.status, { ...headers, "content-type": "application/problem+json", "content-length": String(Buffer.byteLength(text)) });
  res.end(text);
  return problem.status;
}

function pathOf(req) {
  const url = req.url ?? "/";
  const q = url.indexOf("?");
  return q < 0 ? url : url.slice(0, q);
}

/** Whether a path has a %-escape that does not decode (Prism's router throws on it, and its process dies). */
function hasMalformedEscape(path) {
  if (!path.includes("%")) return false;
  try {
    decodeURIComponent(path);
    return false;
  } catch {
    return true;
  }
}

function withoutConnectionHeaders(headers) {
  const out = { ...headers };
  for (const name of HOP_BY_HOP) delete out[name];
  return out;
}

function passOn(headers, names) {
  const out = {};
  for (const name of names) if (headers[name] !== undefined) out[name] = headers[name];
  return out;
}

function parseObject(buffer) {
  try {
    const value = JSON.parse(buffer.toString("utf8"));
    return value && typeof value === "object" && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
