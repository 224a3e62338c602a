// Every error the mock answers is problem+json with the kinds the document defines (type, title,
// status from one table) and field errors with codes; none shows a stack trace or a path, and
// `Prefer: dynamic=true` never answers 500. Real HTTP against the front `npm start` serves.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMock, type RunningMock } from "../../src/mock/front.js";
import { PROBLEM_TYPES, type ProblemKind } from "../../src/shared/problems.js";
import { primaryType } from "../../src/shared/walk.js";
import { deref, operations } from "../support/document.js";
import { DEPLOYMENT, KEY, raw, showsInternals } from "./support.js";

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(async () => {
  await mock.close();
});

const json = { ...KEY, "content-type": "application/json" };

async function problemOf(kind: ProblemKind, options: Parameters<typeof raw>[1]) {
  const answer = await raw(mock.baseUrl, options);
  expect(answer.headers["content-type"], answer.text).toMatch(/^application\/problem\+json/);
  const body = answer.json();
  const { type, title, status } = PROBLEM_TYPES[kind];
  expect({ status: answer.status, type: body.type, title: body.title, bodyStatus: body.status }, answer.text).toEqual({
    status,
    type,
    title,
    bodyStatus: status,
  });
  expect(showsInternals(answer.text), answer.text).toBe(false);
  return body;
}

describe("problem kinds", () => {
  it("malformed JSON: 400 malformed-json with an invalid_json error at the body", async () => {
    const body = await problemOf("malformed-json", { method: "PATCH", path: DEPLOYMENT, headers: json, body: "{oops" });
    expect(body.errors).toEqual([{ pointer: "", code: "invalid_json", detail: "is not valid JSON" }]);
    expect(body.detail).toMatch(/^The body is not valid JSON: /);
  });

  it("an empty PATCH body names the missing body (never errors: [])", async () => {
    const body = await problemOf("validation", { method: "PATCH", path: DEPLOYMENT, headers: json, body: "" });
    expect(body.errors).toEqual([{ pointer: "", code: "required", detail: "the request body is required" }]);
    const noLength = await problemOf("validation", { method: "PATCH", path: DEPLOYMENT, headers: KEY });
    expect(noLength.errors).toEqual([{ pointer: "", code: "required", detail: "the request body is required" }]);
  });

  it("a null body names its type", async () => {
    const body = await problemOf("validation", { method: "PATCH", path: DEPLOYMENT, headers: json, body: "null" });
    expect(body.errors).toEqual([{ pointer: "", code: "type", detail: "must be object" }]);
  });

  it("every request body in the document is an object, as the null-body answer says", () => {
    const bodies = operations().filter((o) => o.op.requestBody);
    expect(bodies.length).toBeGreaterThan(0);
    for (const { operationId, op } of bodies) {
      for (const media of Object.values<any>(deref(op.requestBody).content)) {
        expect(primaryType(deref(media.schema)), operationId).toBe("object");
      }
    }
  });

  it("field errors carry the code of the rule broken, with the simulator's words", async () => {
    const unknown = await problemOf("validation", { method: "PATCH", path: DEPLOYMENT, headers: json, body: '{"zzz":1}' });
    expect(unknown.errors).toEqual([
      { pointer: "/zzz", code: "unknown_field", detail: "is not a field that can be sent here (unknown, read-only or unchangeable)" },
    ]);
    const limit = await problemOf("validation", { path: "/v2/deployments?limit=500", headers: KEY });
    expect(limit.errors).toEqual([{ parameter: "limit", code: "maximum", detail: "must be <= 100" }]);
    const status = await problemOf("validation", { path: "/v2/deployments?status=NOPE", headers: KEY });
    expect(status.errors).toEqual([{ parameter: "status", code: "enum", detail: expect.stringMatching(/^must be one of "[A-Z_]+"(, "[A-Z_]+")*$/) }]);
    const id = await problemOf("validation", { path: "/v2/deployments/abc", headers: KEY });
    expect(id.errors).toEqual([{ parameter: "deployment_id", code: "format", detail: 'must match format "uuid"' }]);
  });

  it("more violations than Prism's header holds: the ones it kept, never the example's made-up errors", async () => {
    const body = JSON.stringify(Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`field${i}`, i])));
    const problem = await problemOf("validation", { method: "PATCH", path: DEPLOYMENT, headers: json, body });
    expect(problem.detail).toMatch(/more invalid fields than the mock can list; the first \d+ are listed/);
    expect(problem.errors.length).toBeGreaterThan(10);
    for (const error of problem.errors)
      expect(error).toEqual({ pointer: expect.stringMatching(/^\/field\d+$/), code: "unknown_field", detail: expect.any(String) });
  });

  it("a wrong type deep in a nullable object is reported once, at the field", async () => {
    const body = await problemOf("validation", {
      method: "PATCH",
      path: DEPLOYMENT,
      headers: json,
      body: JSON.stringify({ source_config: { resource_spec: { min_scale: "two" } } }),
    });
    expect(body.errors).toEqual([{ pointer: "/source_config/resource_spec/min_scale", code: "type", detail: expect.stringMatching(/^must be /) }]);
    expect(body.detail).toBe("The request has 1 invalid field.");
  });

  it("an empty or malformed X-Tenant-Id is a field error, not every tenant's data", async () => {
    const empty = await problemOf("validation", { path: "/v2/deployments", headers: { ...KEY, "x-tenant-id": "" } });
    expect(empty.errors).toEqual([{ parameter: "X-Tenant-Id", code: "format", detail: expect.stringContaining("not empty") }]);
    const patch = await problemOf("validation", { method: "PATCH", path: DEPLOYMENT, headers: { ...json, "x-tenant-id": "acme" }, body: '{"zzz":1}' });
    expect(patch.errors.map((e: any) => e.parameter ?? e.pointer)).toEqual(["X-Tenant-Id", "/zzz"]);
    const uuid = await raw(mock.baseUrl, { path: "/v2/deployments", headers: { ...KEY, "x-tenant-id": "7b1e2c3d-4f5a-4b6c-8d7e-9f0a1b2c3d4e" } });
    expect(uuid.status).toBe(200);
  });

  it("no API key: 401 unauthorized", async () => {
    const body = await problemOf("unauthorized", { path: "/v2/listeners" });
    expect(body.detail).toBe("Send your API key in the X-Api-Key header.");
  });

  it("an unknown path: 404 not-found; a method the path lacks: 405", async () => {
    expect((await problemOf("not-found", { path: "/v2/nope", headers: KEY })).detail).toBe("There is no operation at /v2/nope.");
    const notAllowed = await problemOf("method-not-allowed", { method: "DELETE", path: DEPLOYMENT, headers: KEY });
    expect(notAllowed.detail).toBe(`DELETE is not allowed on ${DEPLOYMENT}; allowed: GET, PATCH.`);
    expect((await raw(mock.baseUrl, { method: "POST", path: "/v2/listeners", headers: KEY })).headers.allow).toBe("GET");
  });

  it("a body that is not JSON: 415", async () => {
    await problemOf("unsupported-media-type", {
      method: "PATCH",
      path: DEPLOYMENT,
      headers: { ...KEY, "content-type": "application/x-www-form-urlencoded" },
      body: "a=b",
    });
  });

  it("a Prefer header Prism cannot decode, or one naming an answer the document lacks", async () => {
    const bad = await problemOf("validation", { path: DEPLOYMENT, headers: { ...KEY, prefer: "dynamic=maybe" } });
    expect(bad.errors).toEqual([{ parameter: "Prefer", code: "invalid", detail: expect.any(String) }]);
    await problemOf("not-found", { path: DEPLOYMENT, headers: { ...KEY, prefer: "example=NoSuchExample" } });
    await problemOf("not-found", { path: DEPLOYMENT, headers: { ...KEY, prefer: "code=418" } });
  });

  it("an Accept header the document cannot satisfy: answered in JSON as the simulator does, not Prism's 406 (a status the document does not list)", async () => {
    const answer = await raw(mock.baseUrl, { path: DEPLOYMENT, headers: { ...KEY, accept: "text/html" } });
    expect(answer.status).toBe(200);
    expect(answer.headers["content-type"]).toMatch(/^application\/json/);
  });

  it("documented error examples pass through (Prefer: code=500)", async () => {
    const answer = await raw(mock.baseUrl, { path: DEPLOYMENT, headers: { ...KEY, prefer: "code=500" } });
    expect(answer.status).toBe(500);
    expect(answer.json().type).toBe(PROBLEM_TYPES.internal.type);
    expect(showsInternals(answer.text)).toBe(false);
  });
});

describe("Prefer: dynamic=true", () => {
  it("never answers 500 or shows internals, in 30 tries on each operation Prism fails to fake", async () => {
    const statuses: number[] = [];
    for (const path of ["/v2/deployments", DEPLOYMENT]) {
      for (let i = 0; i < 30; i++) {
        const answer = await raw(mock.baseUrl, { path, headers: { ...KEY, prefer: "dynamic=true" } });
        statuses.push(answer.status);
        expect(showsInternals(answer.text), answer.text.slice(0, 300)).toBe(false);
        expect(() => answer.json()).not.toThrow();
      }
    }
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
  });

  it("keeps the other preferences when it falls back (code=404 with dynamic=true)", async () => {
    for (let i = 0; i < 10; i++) {
      const answer = await raw(mock.baseUrl, { path: DEPLOYMENT, headers: { ...KEY, prefer: "code=404, dynamic=true" } });
      expect(answer.status).toBe(404);
      expect(showsInternals(answer.text)).toBe(false);
    }
  });
});

describe("odd requests", () => {
  const odd: [string, Parameters<typeof raw>[1]][] = [
    ["an unknown method", { method: "PROPFIND", path: DEPLOYMENT, headers: KEY }],
    ["TRACE", { method: "TRACE", path: DEPLOYMENT, headers: KEY }],
    ["limit=1e309", { path: "/v2/deployments?limit=1e309", headers: KEY }],
    ["limit=Infinity", { path: "/v2/deployments?limit=Infinity", headers: KEY }],
    ["a huge offset", { path: "/v2/deployments?offset=99999999999999999999999", headers: KEY }],
    ["a status list of 2,000 items", { path: `/v2/deployments?status=${"READY,".repeat(2000)}`, headers: KEY }],
    ["an emoji id", { path: "/v2/deployments/%F0%9F%98%80", headers: KEY }],
    ["a 5,000-character id", { path: `/v2/deployments/${"a".repeat(5000)}`, headers: KEY }],
    ["a body that is not UTF-8", { method: "PATCH", path: DEPLOYMENT, headers: json, body: Buffer.from([0xff, 0xfe, 0x00, 0x7b]) }],
    ["JSON with charset=utf-16", { method: "PATCH", path: DEPLOYMENT, headers: { ...KEY, "content-type": "application/json; charset=utf-16" }, body: "{}" }],
    ["a JSON string body", { method: "PATCH", path: DEPLOYMENT, headers: json, body: '"just a string"' }],
    ["nested empty arrays", { method: "PATCH", path: DEPLOYMENT, headers: json, body: "[[[]]]" }],
    ["cpu 1e308", { method: "PATCH", path: DEPLOYMENT, headers: json, body: '{"source_config":{"resource_spec":{"cpu":1e308}}}' }],
    ["a lone surrogate and NUL", { method: "PATCH", path: DEPLOYMENT, headers: json, body: '{"source_revision_config":{"repo_ref":"\\u0000\\ud800"}}' }],
    ["a 7,000-character Prefer", { path: DEPLOYMENT, headers: { ...KEY, prefer: "x".repeat(7000) } }],
    ["an empty example name", { path: DEPLOYMENT, headers: { ...KEY, prefer: "example=" } }],
    ["Accept: application/xml", { path: DEPLOYMENT, headers: { ...KEY, accept: "application/xml" } }],
    ["an encoded .. as id", { path: "/v2/auth/providers/%2e%2e", headers: KEY }],
  ];

  it.each(odd)("%s: an answer below 500, problem+json when an error, nothing of the machine", async (_name, options) => {
    const answer = await raw(mock.baseUrl, options);
    expect(answer.status, answer.text.slice(0, 300)).toBeLessThan(500);
    if (answer.status >= 400) expect(answer.headers["content-type"], answer.text.slice(0, 300)).toMatch(/^application\/problem\+json/);
    expect(showsInternals(answer.text), answer.text.slice(0, 300)).toBe(false);
  });

  it("still serves after all of them", async () => {
    expect((await raw(mock.baseUrl, { path: "/v2/listeners", headers: KEY })).status).toBe(200);
  });
});
