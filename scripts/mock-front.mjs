// A thin node:http front in front of Prism, so the mock honours the document's error format:
// - a body that is not valid JSON gets a problem+json 400 (Prism sends its own non-problem 400);
// - a 422 gets `errors` rebuilt from the violations Prism found (Prism sends the documented
//   example body and puts the real violations only in its `sl-violations` header).
// Everything else passes through unchanged. `npm start` serves this; tests use it via startPrism({ front: true }).
import http from "node:http";
import { startPrismServer } from "./prism-server.mjs";

/**
 * Starts Prism on a free loopback port and the front on `port`/`host`.
 * @param {{ document?: string | object, port?: number, host?: string, logLevel?: string }} [options]
 * @returns {Promise<{ baseUrl: string, prismUrl: string, close(): Promise<void> }>}
 */
export async function startMock(options = {}) {
  const { port = 0, host = "127.0.0.1", logLevel = "silent", document } = options;
  const prism = await startPrismServer({ port: 0, host: "127.0.0.1", logLevel, ...(document ? { document } : {}) });
  const upstream = new URL(prism.baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const logRequests = logLevel !== "silent";
  const server = http.createServer((req, res) => {
    handle(req, res, upstream, agent).then(
      (status) => {
        if (logRequests) process.stdout.write(`${req.method} ${req.url} -> ${status}\n`);
      },
      (error) => {
        if (!res.headersSent) sendProblem(res, 502, "Bad Gateway", `The mock failed: ${error.message}`);
        else res.destroy(error);
      },
    );
  });
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
async function handle(req, res, upstream, agent) {
  const body = await readBody(req);
  if (body.length > 0 && isJson(req.headers["content-type"])) {
    try {
      JSON.parse(body.toString("utf8"));
    } catch (error) {
      sendProblem(res, 400, "Bad Request", "The body is not valid JSON.", [{ detail: error.message, pointer: "" }], corsHeaders(req));
      return 400;
    }
  }
  const answer = await forward(req, body, upstream, agent);
  const violations = parseViolations(answer.headers["sl-violations"]);
  if (answer.status === 422 && violations.length > 0 && isProblem(answer.headers["content-type"])) {
    const errors = withoutBranchNoise(violations.map(toFieldError).filter((e) => e !== undefined));
    const problem = { ...safeParse(answer.body), status: 422, detail: describeCount(errors.length), errors };
    const text = JSON.stringify(problem);
    const headers = { ...answer.headers, "content-length": String(Buffer.byteLength(text)) };
    delete headers["transfer-encoding"];
    res.writeHead(422, headers);
    res.end(text);
    return 422;
  }
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body);
  return answer.status;
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

function forward(req, body, upstream, agent) {
  return new Promise((resolve, reject) => {
    const headers = { ...req.headers, host: upstream.host };
    // The body was read whole: send it with a length, whatever framing the client used.
    delete headers["transfer-encoding"];
    if (body.length > 0 || req.headers["content-length"] !== undefined) headers["content-length"] = String(body.length);
    const outgoing = http.request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers, agent },
      (incoming) => {
        const chunks = [];
        incoming.on("data", (chunk) => chunks.push(chunk));
        incoming.on("end", () => resolve({ status: incoming.statusCode ?? 502, headers: incoming.headers, body: Buffer.concat(chunks) }));
        incoming.on("error", reject);
      },
    );
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}

function sendProblem(res, status, title, detail, errors, extraHeaders = {}) {
  const text = JSON.stringify({ type: "about:blank", title, status, detail, ...(errors ? { errors } : {}) });
  res.writeHead(status, { ...extraHeaders, "content-type": "application/problem+json", "content-length": String(Buffer.byteLength(text)) });
  res.end(text);
}

/** The CORS headers Prism puts on its own answers, for the answers the front makes itself. */
function corsHeaders(req) {
  return {
    "access-control-allow-origin": req.headers.origin ?? "*",
    "access-control-allow-headers": req.headers["access-control-request-headers"] ?? "*",
    "access-control-allow-credentials": "true",
    "access-control-expose-headers": req.headers["access-control-expose-headers"] ?? "*",
  };
}

function isJson(contentType) {
  return /^application\/([\w.+-]+\+)?json\b/i.test(String(contentType ?? ""));
}

function isProblem(contentType) {
  return /^application\/problem\+json\b/i.test(String(contentType ?? ""));
}

function safeParse(buffer) {
  try {
    const value = JSON.parse(buffer.toString("utf8"));
    return value && typeof value === "object" && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

/** Prism's sl-violations header: a JSON array of { location, severity, code, message }. */
function parseViolations(header) {
  if (typeof header !== "string") return [];
  try {
    const list = JSON.parse(header);
    return Array.isArray(list) ? list.filter((v) => v?.severity === "Error" && v.location?.[0] === "request") : [];
  } catch {
    // Prism truncates a very long header ("Too many violations! ..."): keep its example body then.
    return [];
  }
}

/**
 * One Prism violation as a ProblemFieldError: a JSON Pointer for a body field, the name for a
 * query, path or header parameter. Prism locates "unknown property" and "missing property" errors
 * at the parent object and names the property only in the message, so it is appended here.
 */
function toFieldError(violation) {
  const [, where, ...rest] = violation.location.map(String);
  const detail = String(violation.message ?? violation.code ?? "invalid");
  if (where === "body") {
    const named = propertyNamedBy(violation);
    const segments = named === undefined ? rest : [...rest, named];
    return { detail, pointer: segments.map((s) => `/${s.replace(/~/g, "~0").replace(/\//g, "~1")}`).join(""), code: violation.code };
  }
  if ((where === "query" || where === "path" || where === "header") && rest[0] !== undefined) {
    return { detail, parameter: rest[0], code: violation.code };
  }
  return undefined;
}

/**
 * A bad field inside a nullable object (`anyOf: [X, {type: "null"}]`) also fails the null branch:
 * ajv then reports the object itself as "must be null" and "must match a schema in anyOf". Those
 * say nothing the deeper entry does not, so they are dropped when a deeper entry exists.
 */
function withoutBranchNoise(errors) {
  return errors.filter(
    (e) =>
      e.pointer === undefined ||
      !["type", "anyOf", "oneOf"].includes(e.code) ||
      !errors.some((other) => other.pointer !== undefined && other.pointer.startsWith(`${e.pointer}/`)),
  ).map(({ code: _code, ...error }) => error);
}

function propertyNamedBy(violation) {
  if (!["additionalProperties", "unevaluatedProperties", "required"].includes(violation.code)) return undefined;
  const match = /'([^']*)'\s*$/.exec(String(violation.message ?? ""));
  return match?.[1];
}

function describeCount(n) {
  return n === 1 ? "The request has 1 invalid field." : `The request has ${n} invalid fields.`;
}
