// The probes that broke the simulator, as regression tests over real HTTP: one request must never
// break it for later requests (deep nesting, huge or non-finite numbers, an unbounded clock), and no
// other web page may touch it (Host check, CORS only for loopback origins, no cross-site or
// non-JSON control writes, the API key on the control API). Each probe ends by checking that the
// simulator still answers, and that a state file it wrote still loads.
import { mkdtempSync, rmSync } from "node:fs";
import type http from "node:http";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROBLEM_TYPES } from "../../src/shared/problems.js";
import { createSimulator, SEED_IDS, startSimulator, type RunningSimulator } from "../../src/simulator/node/index.js";
import { raw } from "../mock/support.js";
import { upload } from "../support/upload.js";

const KEY = "probe-key";
const auth = { "x-api-key": KEY };
const json = { ...auth, "content-type": "application/json" };
const deployment = () => `/v2/deployments/${SEED_IDS.deployment_id}`;
const MiB = 1024 * 1024;

let dir: string;
let stateFile: string;
let sim: RunningSimulator;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "simulator-probes-"));
  stateFile = join(dir, "state.json");
  sim = await startSimulator({ quiet: true, stateFile, apiKeys: [KEY] });
});
afterAll(async () => {
  await sim?.close();
  rmSync(dir, { recursive: true, force: true });
});

function request(options: Parameters<typeof raw>[1]) {
  return raw(sim.url, options);
}

/** The simulator still serves the pages a request could have broken. */
async function stillServes() {
  for (const path of [deployment(), "/v2/deployments", `${deployment()}/revisions`, "/v2/listeners"]) {
    const answer = await request({ path, headers: auth });
    expect(answer.status, `${path}: ${answer.text.slice(0, 200)}`).toBe(200);
  }
  const write = await request({ method: "PATCH", path: deployment(), headers: json, body: JSON.stringify({ source_revision_config: { repo_ref: "probe" } }) });
  expect(write.status, write.text.slice(0, 200)).toBe(200);
}

function expectProblem(answer: { status: number; headers: http.IncomingHttpHeaders; text: string }, kind: keyof typeof PROBLEM_TYPES) {
  expect(answer.headers["content-type"], answer.text.slice(0, 200)).toMatch(/^application\/problem\+json/);
  const body = JSON.parse(answer.text);
  expect({ status: answer.status, type: body.type }, answer.text.slice(0, 300)).toEqual({ status: PROBLEM_TYPES[kind].status, type: PROBLEM_TYPES[kind].type });
  return body;
}

describe("one request cannot break the simulator", () => {
  it("refuses a value nested 6,000 levels deep in an open Kubernetes field, then still serves and saves", async () => {
    for (const depth of [6_000, 100_000]) {
      const body = `{"source_config":{"containers":[{"name":"a","image":"nginx","env":${"[".repeat(depth)}${"]".repeat(depth)}}]}}`;
      const answer = await request({ method: "PATCH", path: deployment(), headers: json, body });
      const problem = expectProblem(answer, "validation");
      expect(problem.errors).toEqual([expect.objectContaining({ code: "too_deep" })]);
    }
    await stillServes();
  });

  it.each([1e13, 1e308, -1, "10"])("refuses POST /_simulator/advance %j (0 to ten years), and the clock still works", async (seconds) => {
    const answer = await request({ method: "POST", path: "/_simulator/advance", headers: json, body: `{"seconds":${JSON.stringify(seconds)}}` });
    const problem = expectProblem(answer, "validation");
    expect(problem.errors[0]).toMatchObject({ pointer: "/seconds" });
    const status = await request({ path: "/_simulator", headers: auth });
    expect(status.status).toBe(200);
    expect(Number.isNaN(Date.parse(JSON.parse(status.text).now))).toBe(false);
    await stillServes();
  });

  it("refuses advance 1e309 (Infinity once parsed) as not finite", async () => {
    const answer = await request({ method: "POST", path: "/_simulator/advance", headers: json, body: '{"seconds":1e309}' });
    const problem = expectProblem(answer, "validation");
    expect(problem.errors[0]).toMatchObject({ pointer: "/seconds", code: "not_finite" });
  });

  it("refuses cpu: 1e309 instead of storing Infinity and sending null", async () => {
    const answer = await request({ method: "PATCH", path: deployment(), headers: json, body: '{"source_config":{"resource_spec":{"cpu":1e309}}}' });
    const problem = expectProblem(answer, "validation");
    expect(problem.errors).toEqual([expect.objectContaining({ pointer: "/source_config/resource_spec/cpu", code: "not_finite" })]);
    await stillServes();
  });

  it("refuses strings and arrays past the bounds, in the API and the control API", async () => {
    const long = await request({
      method: "PATCH",
      path: deployment(),
      headers: json,
      body: JSON.stringify({ source_revision_config: { repo_ref: "x".repeat(70_000) } }),
    });
    expect(expectProblem(long, "validation").errors).toEqual([expect.objectContaining({ pointer: "/source_revision_config/repo_ref", code: "max_length" })]);
    const control = await request({
      method: "POST",
      path: "/_simulator/fail-next",
      headers: json,
      body: JSON.stringify({ deployment_id: "x".repeat(70_000), status: "BUILD_FAILED" }),
    });
    expect(control.status).toBe(422);
    const deep = await request({
      method: "POST",
      path: "/_simulator/advance",
      headers: json,
      body: `{"seconds":1,"x":${"[".repeat(50_000)}${"]".repeat(50_000)}}`,
    });
    expect(deep.status).toBe(422);
    await stillServes();
  });

  it("loads the state file it wrote through all of the above", async () => {
    await sim.close();
    sim = await startSimulator({ quiet: true, stateFile, apiKeys: [KEY] });
    await stillServes();
    const revisions = await request({ path: `${deployment()}/revisions?limit=100`, headers: auth });
    expect(JSON.parse(revisions.text).resources.some((r: any) => r.source_revision_config?.repo_ref === "probe")).toBe(true);
  });
});

describe("tenants", () => {
  it("answers an empty X-Tenant-Id with a problem, not every tenant's deployments", async () => {
    const answer = await request({ path: "/v2/deployments", headers: { ...auth, "x-tenant-id": "" } });
    expect(answer.status === 400 || answer.status === 422, answer.text.slice(0, 200)).toBe(true);
    expect(JSON.parse(answer.text).errors).toEqual([expect.objectContaining({ parameter: "X-Tenant-Id" })]);
  });
});

describe("no other web page can reach it", () => {
  it("requires the API key on the control API when keys are configured", async () => {
    for (const key of [undefined, "", "wrong"]) {
      const headers: Record<string, string> = { "content-type": "application/json", ...(key === undefined ? {} : { "x-api-key": key }) };
      const reset = await request({ method: "POST", path: "/_simulator/reset", headers, body: "{}" });
      expectProblem(reset, "unauthorized");
      const advance = await request({ method: "POST", path: "/_simulator/advance", headers, body: '{"seconds":60}' });
      expectProblem(advance, "unauthorized");
    }
  });

  it("refuses a text/plain control POST (415) and a cross-origin one (403); nothing is reset", async () => {
    const before = await request({ path: "/_simulator", headers: auth });
    const plain = await request({ method: "POST", path: "/_simulator/advance", headers: { ...auth, "content-type": "text/plain" }, body: '{"seconds":3600}' });
    expectProblem(plain, "unsupported-media-type");
    const form = await request({
      method: "POST",
      path: "/_simulator/advance",
      headers: { ...auth, "content-type": "application/x-www-form-urlencoded" },
      body: "seconds=3600",
    });
    expectProblem(form, "unsupported-media-type");
    const crossSite = await request({
      method: "POST",
      path: "/_simulator/reset",
      headers: { ...auth, origin: "https://evil.example", "content-type": "text/plain" },
      body: "{}",
    });
    expectProblem(crossSite, "forbidden");
    expect(crossSite.headers["access-control-allow-origin"]).toBeUndefined();
    const crossSiteJson = await request({
      method: "POST",
      path: "/_simulator/advance",
      headers: { ...json, origin: "https://evil.example" },
      body: '{"seconds":3600}',
    });
    expectProblem(crossSiteJson, "forbidden");
    const after = await request({ path: "/_simulator", headers: auth });
    // The clock moves with real time only, not by the hour a refused advance asked for.
    expect(Date.parse(JSON.parse(after.text).now) - Date.parse(JSON.parse(before.text).now)).toBeLessThan(60_000);
    // The data written before the refused resets is still there.
    const revisions = await request({ path: `${deployment()}/revisions?limit=100`, headers: auth });
    expect(JSON.parse(revisions.text).resources.some((r: any) => r.source_revision_config?.repo_ref === "probe")).toBe(true);
  });

  it("refuses a foreign Host (DNS rebinding) with 403, the control API included", async () => {
    for (const host of ["evil.example", "evil.example:4011", "localhost.evil.example"]) {
      expectProblem(await request({ path: "/v2/deployments", headers: { ...auth, host } }), "forbidden");
      expectProblem(await request({ method: "POST", path: "/_simulator/reset", headers: { ...json, host }, body: "{}" }), "forbidden");
    }
    expect((await request({ path: "/v2/listeners", headers: { ...auth, host: "localhost:4011" } })).status).toBe(200);
  });

  it("gives a foreign origin no CORS access, a loopback origin its own, and never *", async () => {
    const foreign = await request({ path: "/v2/deployments", headers: { ...auth, origin: "https://evil.example" } });
    expect(foreign.headers["access-control-allow-origin"]).toBeUndefined();
    const preflight = await request({
      method: "OPTIONS",
      path: "/_simulator/reset",
      headers: { origin: "https://evil.example", "access-control-request-method": "POST", "access-control-request-headers": "content-type,x-api-key" },
    });
    expect(preflight.headers["access-control-allow-origin"]).toBeUndefined();
    expect(preflight.headers["access-control-allow-methods"]).toBeUndefined();
    const local = await request({ path: "/v2/deployments", headers: { ...auth, origin: "http://localhost:5173" } });
    expect(local.headers["access-control-allow-origin"]).toBe("http://localhost:5173");
    const none = await request({ path: "/v2/deployments", headers: auth });
    expect(none.headers["access-control-allow-origin"]).toBeUndefined();
  });
});

describe("probes beyond the issue's list", () => {
  it("answers a 100 MB upload with a 413 the client can read while it is still sending, on the API and the control API", async () => {
    for (const path of [deployment(), "/_simulator/advance"]) {
      for (const framing of ["length", "chunked"] as const) {
        const answer = await upload(sim.url, { method: path.startsWith("/_simulator") ? "POST" : "PATCH", path, headers: json, total: 100 * MiB, framing });
        expect(answer.status, `${path} ${framing}`).toBe(413);
        expect(answer.body.type).toBe(PROBLEM_TYPES["content-too-large"].type);
        expect(answer.sentWhenAnswered).toBeLessThan(20 * MiB);
      }
    }
    await stillServes();
  });

  it("answers a path with a broken %-escape without a 500", async () => {
    for (const path of ["/v2/deployments/%E0%A4%A", "/v2/deployments/%", "/_simulator/%ZZ"]) {
      const answer = await request({ path, headers: auth });
      expect(answer.status, `${path}: ${answer.text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
    }
    await stillServes();
  });

  it("refuses query numbers JSON cannot hold and a limit of Infinity", async () => {
    for (const query of ["limit=1e309", "limit=Infinity", "offset=1e309", "offset=-Infinity"]) {
      const answer = await request({ path: `/v2/deployments?${query}`, headers: auth });
      expectProblem(answer, "validation");
    }
  });

  it("refuses a cross-site write that carries no Origin but says Sec-Fetch-Site: cross-site", async () => {
    const answer = await request({ method: "POST", path: "/_simulator/reset", headers: { ...json, "sec-fetch-site": "cross-site" }, body: "{}" });
    expectProblem(answer, "forbidden");
  });

  it("answers a control body of the wrong JSON shape with 422, not 500", async () => {
    for (const body of ["[]", "null", '"x"', "1", '{"seconds":null}', '{"seconds":{"a":1}}']) {
      const answer = await request({ method: "POST", path: "/_simulator/advance", headers: json, body });
      expect(answer.status, `${body}: ${answer.text.slice(0, 200)}`).toBe(422);
    }
    const failNext = await request({ method: "POST", path: "/_simulator/fail-next", headers: json, body: '{"deployment_id":{"$gt":""},"status":"__proto__"}' });
    expect(failNext.status).toBe(422);
    await stillServes();
  });

  it("reads a repeated header as fetch does, refuses a fragment fetch never sends and a second Host", async () => {
    // node:http's req.headers kept the first of two Content-Types (a PATCH went through where
    // in-process, MSW and the docs page answer 415); a "#" routed a path no fetch can ask for.
    const inProcess = createSimulator({ apiKeys: [KEY] });
    const cases: { target: string; headers: [string, string][]; status: number }[] = [
      {
        target: deployment(),
        headers: [
          ["content-type", "application/json"],
          ["content-type", "application/json"],
        ],
        status: 415,
      },
      {
        target: deployment(),
        headers: [
          ["content-type", "application/json"],
          ["content-type", "text/plain"],
        ],
        status: 415,
      },
      { target: `${deployment()}#x`, headers: [["content-type", "application/json"]], status: 400 },
      { target: "/v2/deployments?name_contains=a#b", headers: [], status: 400 },
      // A second Host after the server's own was admitted (req.headers keeps the first); HTTP allows one.
      {
        target: "/_simulator/reset",
        headers: [
          ["host", "evil.example"],
          ["content-type", "application/json"],
        ],
        status: 400,
      },
    ];
    for (const c of cases) {
      const method = c.target.startsWith("/_simulator") ? "POST" : c.headers.length > 0 ? "PATCH" : "GET";
      const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
        const url = new URL(sim.url);
        const flat = ["host", url.host, "x-api-key", KEY, ...c.headers.flat()];
        const req = httpRequest({ host: url.hostname, port: url.port, method, path: c.target, headers: flat, agent: false });
        req.on("error", reject);
        req.on("response", (res) => {
          let text = "";
          res.on("data", (chunk: Buffer) => (text += chunk));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
        });
        req.end(method === "GET" ? undefined : "{}");
      });
      expect(answer.status, `${c.target} ${JSON.stringify(c.headers)}: ${answer.text}`).toBe(c.status);
      if (c.status === 400) expect(JSON.parse(answer.text).detail).toMatch(/fragment \(#\)|more than one Host/);
      // fetch sends neither a fragment nor a Host of its own.
      if (!c.target.includes("#") && method !== "POST") {
        const headers = new Headers([["x-api-key", KEY], ...c.headers]);
        const fetched = await inProcess.fetch(`http://127.0.0.1${c.target}`, { method, headers, ...(method === "PATCH" ? { body: "{}" } : {}) });
        expect(fetched.status, `in-process ${c.target}`).toBe(c.status);
      }
    }
    await inProcess.close();
  });

  it("keeps a __proto__ key in a body from reaching the store's objects", async () => {
    const answer = await request({
      method: "PATCH",
      path: deployment(),
      headers: json,
      body: '{"__proto__":{"polluted":true},"source_revision_config":{"repo_ref":"main"}}',
    });
    expect(answer.status).toBeLessThan(500);
    expect(({} as any).polluted).toBeUndefined();
    await stillServes();
  });
});
