// The mock and the simulator answer the same mistake alike: the same status, problem `type` and
// `title`, and the same field errors (where, `code` and, where both come from the same JSON Schema
// rule, the same words). Both servers run for real, the simulator in-process; a table made from the
// document adds the simulator's core in-process (what MSW and the docs page run) to the comparison.
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMock, type RunningMock } from "../../src/mock/front.js";
import { SEED_IDS, startSimulator, type RunningSimulator } from "../../src/simulator/node/index.js";
import { PROBLEM_TYPES } from "../../src/shared/problems.js";
import { deref, operations } from "../support/document.js";
import { sendRaw } from "../support/raw-http.js";
import { KEY, raw } from "./support.js";

let mock: RunningMock;
let simulator: RunningSimulator;
beforeAll(async () => {
  [mock, simulator] = await Promise.all([startMock(), startSimulator({ quiet: true })]);
});
afterAll(async () => {
  await Promise.all([mock?.close(), simulator?.close()]);
});

interface Mistake {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Compare the field errors' words too (false where each server words its own parser's message). */
  sameDetail?: boolean;
}

const json = { ...KEY, "content-type": "application/json" };
const deployment = () => `/v2/deployments/${SEED_IDS.deployment_id}`;

const MISTAKES: Record<string, () => Mistake> = {
  "malformed JSON": () => ({ method: "PATCH", path: deployment(), headers: json, body: "{oops" }),
  "an unknown field": () => ({ method: "PATCH", path: deployment(), headers: json, body: '{"zzz":1}' }),
  "a field that cannot be changed": () => ({ method: "PATCH", path: deployment(), headers: json, body: '{"name":"x"}' }),
  "a wrong type": () => ({ method: "PATCH", path: deployment(), headers: json, body: '{"source_config":{"resource_spec":{"min_scale":"two"}}}' }),
  "an out-of-range limit": () => ({ path: "/v2/deployments?limit=500", headers: KEY }),
  "a limit that is not a number": () => ({ path: "/v2/deployments?limit=abc", headers: KEY }),
  "a status outside the enum": () => ({ path: "/v2/deployments?status=NOPE", headers: KEY }),
  "an id that is not a UUID": () => ({ path: "/v2/deployments/abc", headers: KEY }),
  "an empty PATCH body": () => ({ method: "PATCH", path: deployment(), headers: json, body: "" }),
  "a null body": () => ({ method: "PATCH", path: deployment(), headers: json, body: "null" }),
  "a value nested too deep": () => ({
    method: "PATCH",
    path: deployment(),
    headers: json,
    body: `{"source_config":{"containers":[{"env":${"[".repeat(100)}${"]".repeat(100)}}]}}`,
  }),
  "a number JSON cannot hold": () => ({ method: "PATCH", path: deployment(), headers: json, body: '{"source_config":{"resource_spec":{"cpu":1e309}}}' }),
  "an empty X-Tenant-Id": () => ({ path: "/v2/deployments", headers: { ...KEY, "x-tenant-id": "" } }),
  "an X-Tenant-Id that is not a UUID, beside a bad limit": () => ({ path: "/v2/deployments?limit=500", headers: { ...KEY, "x-tenant-id": "acme" } }),
  "a JSON media type the document does not list": () => ({
    method: "PATCH",
    path: deployment(),
    headers: { ...KEY, "content-type": "application/vnd.api+json" },
    body: "{}",
  }),
  "a Content-Type that is not one media type": () => ({
    method: "PATCH",
    path: deployment(),
    headers: { ...KEY, "content-type": "application/json, text/plain" },
    body: "{}",
  }),
  "a Content-Type that is no media type at all": () => ({ method: "PATCH", path: deployment(), headers: { ...KEY, "content-type": "json" }, body: "{}" }),
  "a Content-Type with a broken parameter": () => ({
    method: "PATCH",
    path: deployment(),
    headers: { ...KEY, "content-type": "application/json; charset" },
    body: "{}",
  }),
  "a single-valued query parameter given twice": () => ({ path: "/v2/deployments?limit=1&limit=2", headers: KEY }),
  "a boolean query parameter given twice": () => ({ path: "/v2/deployments?remote_reconciled=true&remote_reconciled=true", headers: KEY }),
  "an empty integer query value": () => ({ path: "/v2/listeners?limit=5&offset=", headers: KEY }),
  "a text/plain body": () => ({ method: "PATCH", path: deployment(), headers: { ...KEY, "content-type": "text/plain" }, body: "{}" }),
  "a missing API key": () => ({ path: "/v2/listeners" }),
  "an unknown path": () => ({ path: "/v2/nope", headers: KEY }),
  "a method the path does not have": () => ({ method: "DELETE", path: deployment(), headers: KEY }),
  "a foreign Host": () => ({ path: "/v2/listeners", headers: { ...KEY, host: "evil.example" } }),
  "a body over the size bound": () => ({ method: "PATCH", path: deployment(), headers: json, body: " ".repeat(1024 * 1024 + 1), sameDetail: false }),
};

function shape(answer: { status: number; text: string }, sameDetail: boolean) {
  const body = JSON.parse(answer.text);
  const errors = (body.errors ?? []).map((e: any) => ({
    where: e.pointer ?? `parameter ${e.parameter}`,
    code: e.code,
    ...(sameDetail ? { detail: e.detail } : {}),
  }));
  // The malformed-JSON detail carries the parser's message and the validation detail counts the
  // fields, the same in both: compare them too.
  const detail = [PROBLEM_TYPES["malformed-json"].type, PROBLEM_TYPES.validation.type].includes(body.type) ? body.detail : undefined;
  return { status: answer.status, type: body.type, title: body.title, bodyStatus: body.status, errors, detail };
}

describe("the mock and the simulator answer one mistake alike", () => {
  it.each(Object.keys(MISTAKES))("%s", async (name) => {
    const { sameDetail = true, ...request } = MISTAKES[name]!();
    const [fromMock, fromSimulator] = await Promise.all([raw(mock.baseUrl, request), raw(simulator.url, request)]);
    expect(fromMock.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(fromSimulator.headers["content-type"]).toMatch(/^application\/problem\+json/);
    const mockShape = shape(fromMock, sameDetail);
    expect(mockShape.status).toBeGreaterThanOrEqual(400);
    expect(mockShape, `mock: ${fromMock.text}\nsimulator: ${fromSimulator.text}`).toEqual(shape(fromSimulator, sameDetail));
    expect(fromMock.headers.allow).toBe(fromSimulator.headers.allow);
  });
});

describe("the mock and the simulator accept alike", () => {
  const accepted: Record<string, () => Mistake> = {
    // RFC 8259 lets a parser ignore a leading byte-order mark; both do (the gate's parseJsonText).
    "a JSON body starting with a UTF-8 byte-order mark": () => ({
      method: "PATCH",
      path: deployment(),
      headers: json,
      body: `\uFEFF${JSON.stringify({ source_revision_config: { repo_ref: "main" } })}`,
    }),
    "a JSON body with white space around it": () => ({ method: "PATCH", path: deployment(), headers: json, body: ' \n{"source_config":{}}\n ' }),
    "a charset parameter on application/json": () => ({
      method: "PATCH",
      path: deployment(),
      headers: { ...KEY, "content-type": 'application/json; charset="utf-8"' },
      body: "{}",
    }),
  };
  it.each(Object.keys(accepted))("%s", async (name) => {
    const { sameDetail: _unused, ...request } = accepted[name]!();
    const [fromMock, fromSimulator] = await Promise.all([raw(mock.baseUrl, request), raw(simulator.url, request)]);
    expect(fromMock.status, fromMock.text).toBe(200);
    expect(fromSimulator.status, fromSimulator.text).toBe(200);
  });
});

interface Probe {
  method: string;
  /** Path and query, as sent on the request line. */
  target: string;
  headers: Record<string, string>;
  body?: string;
}

const seedId = (name: string, path: string): string =>
  name === "integration_id"
    ? path.includes("/forge/")
      ? SEED_IDS.forge_integration_id
      : SEED_IDS.scm_integration_id
    : String((SEED_IDS as Record<string, unknown>)[name]);

function pathOf(path: string, values: Record<string, string> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? encodeURIComponent(seedId(name, path)));
}

/** A value the parameter's schema refuses, as request-line text; undefined when it takes any text. */
function refusedText(schema: any): string | undefined {
  const s = deref(schema);
  const item = s.type === "array" ? deref(s.items) : s;
  if (item.format === "uuid") return "not-a-uuid";
  if (item.type === "integer" || item.type === "number" || item.type === "boolean") return "1.5x";
  if (Array.isArray(item.enum)) return "NOT_LISTED";
  return undefined;
}

function probes(): Record<string, Probe> {
  const out: Record<string, Probe> = {};
  for (const o of operations()) {
    const method = o.method.toUpperCase();
    const params = [...(o.pathItem.parameters ?? []), ...(o.op.parameters ?? [])].map((p: any) => deref(p));
    const takesBody = o.op.requestBody !== undefined;
    const withBody = (target: string): Probe =>
      takesBody ? { method, target, headers: { ...KEY, "content-type": "application/json" }, body: "{}" } : { method, target, headers: KEY };
    for (const p of params.filter((p: any) => p.in === "path")) {
      const bad = refusedText(p.schema);
      if (bad) out[`${o.operationId}: ${p.name} not in its format`] = { ...withBody(pathOf(o.path, { [p.name]: bad })) };
      if (bad && takesBody) {
        out[`${o.operationId}: ${p.name} not in its format, and no body`] = { method, target: pathOf(o.path, { [p.name]: bad }), headers: KEY };
      }
    }
    for (const p of params.filter((p: any) => p.in === "query")) {
      const bad = refusedText(p.schema) ?? "x";
      out[`${o.operationId}: ${p.name} given twice`] = withBody(`${pathOf(o.path)}?${p.name}=${bad}&${p.name}=${bad}`);
      out[`${o.operationId}: ${p.name} given empty`] = withBody(`${pathOf(o.path)}?${p.name}=`);
    }
    out[`${o.operationId}: OPTIONS`] = { method: "OPTIONS", target: pathOf(o.path), headers: KEY };
    out[`${o.operationId}: an Accept it cannot satisfy`] = { ...withBody(pathOf(o.path)), headers: { ...withBody("").headers, accept: "application/xml" } };
    if (!takesBody) {
      out[`${o.operationId}: a body on ${method}`] = { method, target: pathOf(o.path), headers: { ...KEY, "content-type": "application/json" }, body: "{oops" };
    }
    // A URL parser removes dot segments before fetch sends a request; the node gate does it too.
    const [, first, ...rest] = pathOf(o.path).split("/");
    out[`${o.operationId}: dot segments`] = withBody(`/${first}/./x/%2E%2e/${rest.join("/")}`);
  }
  out["OPTIONS on a path no operation has"] = { method: "OPTIONS", target: "/v2/nope", headers: KEY };
  return out;
}

const PROBES = probes();

function answerShape(status: number, contentType: string | null | undefined, allow: string | null | undefined, text: string) {
  let body: any;
  try {
    body = text === "" ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return {
    status,
    mediaType: (contentType ?? "").split(";")[0],
    allow: allow ?? undefined,
    type: status >= 400 ? body?.type : undefined,
    errors: status >= 400 ? (body?.errors ?? []).map((e: any) => `${e.pointer ?? `parameter ${e.parameter}`}: ${e.code}`) : undefined,
  };
}

async function overHttp(baseUrl: string, probe: Probe) {
  const headers = probe.body === undefined ? probe.headers : { ...probe.headers, "content-length": String(Buffer.byteLength(probe.body)) };
  const answer = await sendRaw(baseUrl, { method: probe.method, path: probe.target, headers, ...(probe.body !== undefined ? { body: probe.body } : {}) });
  return answerShape(answer.status, answer.headers["content-type"], answer.headers.allow, answer.text);
}

async function inProcess(probe: Probe) {
  const sendsBody = probe.body !== undefined && probe.method !== "GET" && probe.method !== "HEAD";
  const response = await simulator.simulator.fetch(`http://localhost${probe.target}`, {
    method: probe.method,
    headers: probe.headers,
    ...(sendsBody ? { body: probe.body } : {}),
  });
  return answerShape(response.status, response.headers.get("content-type"), response.headers.get("allow"), await response.text());
}

describe("the mock, the simulator's port and its core in-process answer the document's hostile requests alike", () => {
  // Every operation of the document, each with a value its schema refuses in every path parameter,
  // each query parameter given twice and given empty, OPTIONS, a body on a GET, an Accept no
  // operation can satisfy, dot segments; the core in-process is what MSW and the docs page run.
  // Compared: status, media type, problem type, Allow, and each field error's place and code, in order.
  it("every probe, made from the document", async () => {
    const names = Object.keys(PROBES);
    expect(names.length).toBeGreaterThan(operations().length * 4);
    const differences = await Promise.all(
      names.map(async (name) => {
        const probe = PROBES[name]!;
        const [fromMock, fromSimulator, fromCore] = await Promise.all([overHttp(mock.baseUrl, probe), overHttp(simulator.url, probe), inProcess(probe)]);
        const found: string[] = [];
        if (fromSimulator.status >= 500) found.push(`simulator ${JSON.stringify(fromSimulator)}`);
        if (JSON.stringify(fromCore) !== JSON.stringify(fromSimulator))
          found.push(`in-process ${JSON.stringify(fromCore)} but port ${JSON.stringify(fromSimulator)}`);
        // The mock keeps no state: an id the simulator does not have answers the document's example (docs/mock.md, Limits).
        const stateless = fromSimulator.type === PROBLEM_TYPES["not-found"].type && fromMock.status === 200;
        if (!stateless && JSON.stringify(fromMock) !== JSON.stringify(fromSimulator))
          found.push(`mock ${JSON.stringify(fromMock)} but simulator ${JSON.stringify(fromSimulator)}`);
        return found.map((line) => `${name}: ${line}`);
      }),
    );
    expect(differences.flat()).toEqual([]);
  });
});

/** Bytes written to a socket as they are (node:http would refuse to send them), and all the server answers until it closes. */
function sendBytes(baseUrl: string, bytes: string): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(bytes));
    let answer = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (answer += chunk));
    socket.on("close", () => resolve(answer));
    socket.on("error", reject);
  });
}

describe("a request Node's HTTP parser cannot read: a 400 problem naming what is wrong, from both servers alike", () => {
  const head = (lines: string[]) => `${lines.join("\r\n")}\r\nConnection: close\r\n\r\n`;
  const unreadable: Record<string, string> = {
    "a control character in X-Api-Key": head(["GET /v2/listeners HTTP/1.1", "Host: localhost", "X-Api-Key: a\u0001b"]),
    "headers past 16 KiB": head(["GET /v2/listeners HTTP/1.1", "Host: localhost", `X-Api-Key: ${"k".repeat(17 * 1024)}`]),
    "a method Node does not know": head(["BREW /v2/listeners HTTP/1.1", "Host: localhost", "X-Api-Key: k"]),
    "Content-Length beside Transfer-Encoding": `PATCH ${deployment()} HTTP/1.1\r\nHost: localhost\r\nX-Api-Key: k\r\nContent-Type: application/json\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
  };
  it.each(Object.keys(unreadable))("%s", async (name) => {
    const [fromMock, fromSimulator] = await Promise.all([sendBytes(mock.baseUrl, unreadable[name]!), sendBytes(simulator.url, unreadable[name]!)]);
    for (const answer of [fromMock, fromSimulator]) {
      expect(answer, answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(answer).toMatch(/\r\ncontent-type: application\/problem\+json\r\n/);
      const problem = JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4));
      expect(problem).toMatchObject({ type: PROBLEM_TYPES["bad-request"].type, status: 400 });
    }
    expect(fromMock.slice(fromMock.indexOf("\r\n\r\n"))).toBe(fromSimulator.slice(fromSimulator.indexOf("\r\n\r\n")));
  });

  it("answers the request before an unreadable one on the same connection, then closes it", async () => {
    // Content-Length 1 for a body of two bytes: the second is read as the next request, which is not HTTP.
    const bytes = `PATCH ${deployment()} HTTP/1.1\r\nHost: localhost\r\nX-Api-Key: k\r\nContent-Type: application/json\r\nContent-Length: 1\r\n\r\n{}`;
    for (const baseUrl of [mock.baseUrl, simulator.url]) {
      const answer = await sendBytes(baseUrl, bytes);
      expect(answer, baseUrl).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)).type).toBe(PROBLEM_TYPES["malformed-json"].type);
    }
    // And both still serve.
    const after = await Promise.all([raw(mock.baseUrl, { path: "/v2/listeners", headers: KEY }), raw(simulator.url, { path: "/v2/listeners", headers: KEY })]);
    expect(after.map((a) => a.status)).toEqual([200, 200]);
  });
});

describe("the simulator's control API routes by the same table as the API, on its port and in-process", () => {
  const cases: [string, Probe, { status: number; allow?: string; type?: string }][] = [
    ["HEAD of the status, as GET", { method: "HEAD", target: "/_simulator", headers: {} }, { status: 200 }],
    ["the status at /_simulator/", { method: "GET", target: "/_simulator/", headers: {} }, { status: 200 }],
    [
      "GET of a POST action: 405 with Allow",
      { method: "GET", target: "/_simulator/reset", headers: {} },
      { status: 405, allow: "POST", type: PROBLEM_TYPES["method-not-allowed"].type },
    ],
    ["OPTIONS of an action: 204 with Allow", { method: "OPTIONS", target: "/_simulator/advance", headers: {} }, { status: 204, allow: "POST" }],
    ["a control that does not exist", { method: "POST", target: "/_simulator/nope", headers: {} }, { status: 404, type: PROBLEM_TYPES["not-found"].type }],
  ];
  it.each(cases)("%s", async (_name, probe, expected) => {
    for (const answer of [await overHttp(simulator.url, probe), await inProcess(probe)]) {
      expect(answer).toMatchObject({ status: expected.status, allow: expected.allow, type: expected.type });
    }
  });
});
