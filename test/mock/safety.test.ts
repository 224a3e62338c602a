// The mock on a developer's machine: only requests addressed to it by a loopback name (no DNS
// rebinding), CORS answers only for loopback origins, no write from another site's page, and no
// request that takes it down. Real HTTP against the front `npm start` serves.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMock, type RunningMock } from "../../src/mock/front.js";
import { PROBLEM_TYPES } from "../../src/shared/problems.js";
import { DEPLOYMENT, KEY, raw } from "./support.js";

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ allowedHosts: ["dev.example.test"], corsOrigins: ["https://app.example.test"] });
});
afterAll(async () => {
  await mock.close();
});

describe("Host check", () => {
  it.each(["evil.example", "evil.example:4010", "localhost.evil.example", "192.168.1.20:4010"])("refuses Host %s with a 403 problem", async (host) => {
    const answer = await raw(mock.baseUrl, { path: "/v2/listeners", headers: { ...KEY, host } });
    expect(answer.status).toBe(403);
    expect(answer.headers["content-type"]).toMatch(/^application\/problem\+json/);
    const body = answer.json();
    expect(body).toMatchObject({ type: PROBLEM_TYPES.forbidden.type, title: PROBLEM_TYPES.forbidden.title, status: 403 });
    expect(body.detail).toContain("--allowed-host");
  });

  it("refuses a foreign Host before anything else, a write included", async () => {
    const answer = await raw(mock.baseUrl, {
      method: "PATCH",
      path: DEPLOYMENT,
      headers: { ...KEY, host: "rebind.example", "content-type": "application/json" },
      body: "{oops",
    });
    expect(answer.status).toBe(403);
  });

  it.each(["localhost", "127.0.0.1:1234", "[::1]:4010", "app.localhost:5173", "dev.example.test", "DEV.example.test:8080"])("answers Host %s", async (host) => {
    const answer = await raw(mock.baseUrl, { path: "/v2/listeners", headers: { ...KEY, host } });
    expect(answer.status).toBe(200);
  });
});

describe("CORS", () => {
  it.each(["http://localhost:3000", "http://127.0.0.1:5173", "http://[::1]:8080", "https://app.example.test"])("shares answers with %s", async (origin) => {
    const answer = await raw(mock.baseUrl, { path: "/v2/listeners", headers: { ...KEY, origin } });
    expect(answer.status).toBe(200);
    expect(answer.headers["access-control-allow-origin"]).toBe(origin);
    expect(answer.headers.vary).toMatch(/origin/i);
  });

  it.each(["https://evil.example", "http://localhost.evil.example", "null", "http://app.example.test"])("gives %s no access-control header", async (origin) => {
    const answer = await raw(mock.baseUrl, { path: "/v2/listeners", headers: { ...KEY, origin } });
    expect(answer.headers["access-control-allow-origin"]).toBeUndefined();
    expect(answer.headers["access-control-allow-credentials"]).toBeUndefined();
    expect(answer.headers.vary).toMatch(/origin/i);
  });

  it("never answers access-control-allow-origin: *, not even without Origin", async () => {
    const answer = await raw(mock.baseUrl, { path: "/v2/listeners", headers: KEY });
    expect(answer.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("answers a loopback page's preflight, and its own errors carry the header too", async () => {
    const origin = "http://localhost:3000";
    const preflight = await raw(mock.baseUrl, {
      method: "OPTIONS",
      path: DEPLOYMENT,
      headers: { origin, "access-control-request-method": "PATCH", "access-control-request-headers": "x-api-key,content-type,prefer" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers["access-control-allow-origin"]).toBe(origin);
    expect(preflight.headers["access-control-allow-methods"]).toContain("PATCH");
    expect(preflight.headers["access-control-allow-headers"]).toBe("x-api-key,content-type,prefer");
    const malformed = await raw(mock.baseUrl, {
      method: "PATCH",
      path: DEPLOYMENT,
      headers: { ...KEY, origin, "content-type": "application/json" },
      body: "{",
    });
    expect(malformed.status).toBe(400);
    expect(malformed.headers["access-control-allow-origin"]).toBe(origin);
  });

  it("lets an added public origin reach the loopback mock through Chrome's private-network preflight", async () => {
    const preflight = await raw(mock.baseUrl, {
      method: "OPTIONS",
      path: "/v2/listeners",
      headers: { origin: "https://app.example.test", "access-control-request-method": "GET", "access-control-request-private-network": "true" },
    });
    expect(preflight.headers["access-control-allow-private-network"]).toBe("true");
  });

  it("gives a foreign page's preflight nothing, so the browser never sends the request", async () => {
    const preflight = await raw(mock.baseUrl, {
      method: "OPTIONS",
      path: DEPLOYMENT,
      headers: { origin: "https://evil.example", "access-control-request-method": "PATCH", "access-control-request-headers": "x-api-key,content-type" },
    });
    expect(preflight.headers["access-control-allow-origin"]).toBeUndefined();
    expect(preflight.headers["access-control-allow-methods"]).toBeUndefined();
  });
});

describe("writes from other sites", () => {
  it("refuses a cross-origin text/plain POST (a form needs no preflight) with 403", async () => {
    const answer = await raw(mock.baseUrl, {
      method: "POST",
      path: "/_simulator/reset",
      headers: { origin: "https://evil.example", "content-type": "text/plain", "sec-fetch-site": "cross-site" },
      body: '{"x":1}',
    });
    expect(answer.status).toBe(403);
    expect(answer.json().type).toBe(PROBLEM_TYPES.forbidden.type);
    expect(answer.headers["access-control-allow-origin"]).toBeUndefined();
  });

  it("refuses a cross-origin form PATCH and a cross-site write without Origin", async () => {
    const form = await raw(mock.baseUrl, {
      method: "PATCH",
      path: DEPLOYMENT,
      headers: { ...KEY, origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" },
      body: "name=x",
    });
    expect(form.status).toBe(403);
    const noOrigin = await raw(mock.baseUrl, {
      method: "POST",
      path: DEPLOYMENT,
      headers: { ...KEY, "sec-fetch-site": "cross-site", "content-type": "text/plain" },
      body: "x",
    });
    expect(noOrigin.status).toBe(403);
  });

  it("lets a loopback page, an added origin and curl write", async () => {
    const body = JSON.stringify({ source_revision_config: { repo_ref: "main" } });
    for (const headers of [{ origin: "http://localhost:3000" }, { origin: "https://app.example.test" }, {}] as Record<string, string>[]) {
      const answer = await raw(mock.baseUrl, { method: "PATCH", path: DEPLOYMENT, headers: { ...KEY, ...headers, "content-type": "application/json" }, body });
      expect(answer.status, JSON.stringify(headers)).toBe(200);
    }
  });

  it("answers a same-origin text/plain PATCH with 415, not a change", async () => {
    const answer = await raw(mock.baseUrl, { method: "PATCH", path: DEPLOYMENT, headers: { ...KEY, "content-type": "text/plain" }, body: "{}" });
    expect(answer.status).toBe(415);
    expect(answer.json()).toMatchObject({ type: PROBLEM_TYPES["unsupported-media-type"].type, detail: "Send the body as application/json, not text/plain." });
  });
});

describe("request targets", () => {
  it("answers HEAD like GET without the body, as the simulator does", async () => {
    const head = await raw(mock.baseUrl, { method: "HEAD", path: "/v2/listeners", headers: KEY });
    const get = await raw(mock.baseUrl, { path: "/v2/listeners", headers: KEY });
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
    expect(head.headers["content-length"]).toBe(get.headers["content-length"]);
  });

  it("refuses a full URL or * as the request target (400), so the Host check cannot be sidestepped", async () => {
    for (const path of ["http://evil.example/v2/listeners", "*"]) {
      const answer = await raw(mock.baseUrl, { method: path === "*" ? "OPTIONS" : "GET", path, headers: KEY });
      expect(answer.status, path).toBe(400);
      expect(answer.json().type).toBe(PROBLEM_TYPES["bad-request"].type);
    }
  });
});

describe("requests that took the mock down", () => {
  it("answers a path with a broken %-escape with 400 and keeps serving (it kills bare Prism's process)", async () => {
    for (const path of ["/v2/deployments/%E0%A4%A", "/v2/deployments/%", "/v2/listeners/%ZZ"]) {
      const answer = await raw(mock.baseUrl, { path, headers: KEY });
      expect(answer.status, path).toBe(400);
      expect(answer.json().type).toBe(PROBLEM_TYPES["bad-request"].type);
    }
    expect((await raw(mock.baseUrl, { path: "/v2/listeners", headers: KEY })).status).toBe(200);
  });
});
