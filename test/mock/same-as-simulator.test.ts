// The mock and the simulator answer the same mistake alike: the same status, problem `type` and
// `title`, and the same field errors (where, `code` and, where both come from the same JSON Schema
// rule, the same words). Both servers run for real, the simulator in-process.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMock, type RunningMock } from "../../src/mock/front.js";
import { SEED_IDS, startSimulator, type RunningSimulator } from "../../src/simulator/node/index.js";
import { PROBLEM_TYPES } from "../../src/shared/problems.js";
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
