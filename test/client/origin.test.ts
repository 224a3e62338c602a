// What the client sends stays with the service's origin, over real HTTP (two local servers, one the
// "other origin"): redirects to another origin are refused before anything reaches it, same-origin
// ones are followed with the body; every path parameter stays inside its segment; a relative baseUrl
// resolves against the page; apiKey may be left out for a same-origin proxy.
import { afterEach, describe, expect, it, vi } from "vitest";
import { createDeploymentsClient, RedirectError, unwrap } from "../../src/index.js";
import { localServers, sendJson, sendText } from "./local-server.js";

const serve = localServers();
const ID = "7f1c2d4e-0000-4000-8000-000000000001";
const deployment = { id: ID, name: "d", latest_revision_id: null };
const secretPatch = { secrets: [{ name: "OPENAI_API_KEY", value: "sk-very-secret" }] };

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("redirects", () => {
  for (const status of [301, 302, 303, 307, 308]) {
    it(`a ${status} to another origin is refused: the other origin gets no request, no key, no tenant, no body`, async () => {
      const other = await serve((_req, res) => sendJson(res, 200, deployment));
      const service = await serve((req, res) => sendText(res, status, "", "text/plain", { Location: `${other.baseUrl}${req.url.pathname}` }));
      const client = createDeploymentsClient({ baseUrl: service.baseUrl, apiKey: "key-1", tenantId: "tenant-1", headers: { Authorization: "Bearer t" } });
      const params = { path: { deployment_id: ID } };
      const patched = client.PATCH("/v2/deployments/{deployment_id}", { params, body: secretPatch });
      await expect(patched).rejects.toBeInstanceOf(RedirectError);
      await expect(client.GET("/v2/deployments/{deployment_id}", { params })).rejects.toThrow(/another origin \(http:\/\/127\.0\.0\.1:\d+\)/);
      expect(other.requests).toEqual([]);
      // A refused redirect is not retried: one GET and one PATCH reached the service.
      expect(service.requests.map((r) => r.method).sort()).toEqual(["GET", "PATCH"]);
    });
  }

  it("a 307 on the same origin is followed with the method, headers and body", async () => {
    const server = await serve((req, res) => {
      if (req.url.pathname.startsWith("/old/")) return sendText(res, 307, "", "text/plain", { Location: req.url.pathname.slice(4) });
      sendJson(res, 200, deployment);
    });
    const client = createDeploymentsClient({ baseUrl: `${server.baseUrl}/old`, apiKey: "key-1", retry: { retries: 0 } });
    unwrap(await client.PATCH("/v2/deployments/{deployment_id}", { params: { path: { deployment_id: ID } }, body: secretPatch }));
    expect(server.requests.map((r) => `${r.method} ${r.url.pathname}`)).toEqual([`PATCH /old/v2/deployments/${ID}`, `PATCH /v2/deployments/${ID}`]);
    expect(JSON.parse(server.requests[1]!.body)).toEqual(secretPatch);
    expect(server.requests[1]!.headers["x-api-key"]).toBe("key-1");
  });

  it("a 303 on the same origin turns a PATCH into a GET without a body", async () => {
    const server = await serve((req, res) =>
      req.method === "PATCH" ? sendText(res, 303, "", "text/plain", { Location: `/v2/deployments/${ID}` }) : sendJson(res, 200, deployment),
    );
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k" });
    unwrap(await client.PATCH("/v2/deployments/{deployment_id}", { params: { path: { deployment_id: ID } }, body: secretPatch }));
    expect(server.requests.map((r) => `${r.method} ${r.body}`)).toEqual([`PATCH ${JSON.stringify(secretPatch)}`, "GET "]);
  });

  // [name, the Location for a server at `base` echoing the key]: credentials in a Location are never
  // followed, nor shown, nor retried, whichever origin they name.
  const withCredentials: [string, (base: URL, key: string) => string][] = [
    ["the same origin, user and key", (base, key) => `http://u:${key}@${base.host}/v2/listeners`],
    ["the same origin, the key as the user", (base, key) => `http://${key}@${base.host}/v2/listeners`],
    ["another origin", (_base, key) => `http://u:${key}@other.example/v2/listeners`],
    ["scheme-relative", (_base, key) => `//u:${key}@other.example/x`],
  ];
  it.each(withCredentials)("a Location with user:password@ (%s) is a RedirectError that shows neither, sent once", async (_name, location) => {
    const key = "echoed-key-s3cr3t";
    const service = await serve((req, res) =>
      sendText(res, 302, "", "text/plain", { Location: location(new URL(service.baseUrl), String(req.headers["x-api-key"])) }),
    );
    const client = createDeploymentsClient({ baseUrl: service.baseUrl, apiKey: key, retry: { retries: 2, minDelayMs: 1, maxDelayMs: 2 } });
    const error = (await client.GET("/v2/listeners").catch((e: unknown) => e)) as RedirectError;
    expect(error).toBeInstanceOf(RedirectError);
    expect(`${error.message} ${error.location} ${error.url}`).not.toContain(key);
    expect(error.location).not.toContain("@");
    expect(service.requests).toHaveLength(1);
  });

  it("a redirect loop ends with a RedirectError", async () => {
    const server = await serve((req, res) => sendText(res, 302, "", "text/plain", { Location: req.url.pathname }));
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k", retry: { retries: 0 } });
    await expect(client.GET("/v2/listeners")).rejects.toThrow(/more than 5 redirects/);
    expect(server.requests).toHaveLength(6);
  });

  it("an opaque redirect (what a browser gives for redirect: manual) is refused", async () => {
    const opaque = Object.defineProperty(new Response(null, { status: 200 }), "type", { value: "opaqueredirect" });
    const client = createDeploymentsClient({ baseUrl: "http://127.0.0.1:4010", apiKey: "k", fetch: async () => opaque, retry: { retries: 0 } });
    await expect(client.GET("/v2/listeners")).rejects.toThrow(/a browser does not show where it leads/);
  });
});

describe("path parameters stay in their segment", () => {
  const bad: [string, unknown][] = [
    ["..", /must not be "\.\."/],
    [".", /must not be "\."/],
    ["%2e%2E", /must not be/],
    ["", /must not be empty/],
  ].map(([v, m]) => [v as string, m]);
  for (const [value, message] of bad) {
    it(`agent_id ${JSON.stringify(value)} is refused before anything is sent`, async () => {
      const server = await serve((_req, res) => sendJson(res, 200, { resources: [], offset: 0 }));
      const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k" });
      const call = client.GET("/v2/auth/agents/{agent_id}/connections" as never, { params: { path: { agent_id: value } } } as never);
      await expect(call).rejects.toThrow(message as RegExp);
      await expect(call).rejects.toBeInstanceOf(TypeError);
      expect(server.requests).toEqual([]);
    });
  }

  it("/, ?, #, % and .. inside a value are encoded in the one segment", async () => {
    const server = await serve((_req, res) => sendJson(res, 200, deployment));
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k", retry: { retries: 0 } });
    await client.GET("/v2/deployments/{deployment_id}", { params: { path: { deployment_id: "../a/b?c#d%2e%2e.." } } });
    const seen = server.requests[0]!.url.pathname;
    expect(seen).toBe("/v2/deployments/..%2Fa%2Fb%3Fc%23d%252e%252e..");
    expect(decodeURIComponent(seen.split("/")[3]!)).toBe("../a/b?c#d%2e%2e..");
  });

  it("a missing path parameter is refused, not sent as {deployment_id}", async () => {
    const server = await serve((_req, res) => sendJson(res, 200, deployment));
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k" });
    await expect(client.GET("/v2/deployments/{deployment_id}" as never, {} as never)).rejects.toThrow(/path parameter deployment_id is missing/);
    expect(server.requests).toEqual([]);
  });
});

describe("browsers: a relative baseUrl and no apiKey", () => {
  it('"/api" resolves against the page\'s location; without apiKey no X-Api-Key is sent', async () => {
    const proxy = await serve((_req, res) => sendJson(res, 200, { resources: [], offset: 0 }));
    vi.stubGlobal("location", new URL(`${proxy.baseUrl}/app/page?x=1`));
    const client = createDeploymentsClient({ baseUrl: "/api" });
    unwrap(await client.GET("/v2/listeners"));
    expect(proxy.requests[0]!.url.pathname).toBe("/api/v2/listeners");
    expect(proxy.requests[0]!.headers).not.toHaveProperty("x-api-key");
  });

  it("an empty apiKey is still refused", () => {
    vi.stubGlobal("location", new URL("http://127.0.0.1:5173/"));
    expect(() => createDeploymentsClient({ baseUrl: "/api", apiKey: "" })).toThrow(/apiKey must be a non-empty string/);
  });
});
