// createDeploymentsClient over real HTTP (a local node:http server): authentication headers, the
// document's query encoding, and retries of GET but never of PATCH.
import { describe, expect, it } from "vitest";
import { ApiError, createDeploymentsClient, deployRevision, parseRetryAfter, unwrap } from "../../src/index.js";
import { deref, operations } from "../support/document.js";
import { type Handler, localServers, sendJson } from "./local-server.js";

const serve = localServers();

const DEPLOYMENT_ID = "7f1c2d4e-0000-4000-8000-000000000001";
const page = { resources: [], offset: 0 };

describe("headers", () => {
  it("sends X-Api-Key, X-Tenant-Id and extra headers on every request", async () => {
    const server = await serve((_req, res) => sendJson(res, 200, page));
    const client = createDeploymentsClient({
      baseUrl: server.baseUrl,
      apiKey: "key-1",
      tenantId: "tenant-1",
      headers: { "X-Trace": "t" },
    });
    unwrap(await client.GET("/v2/listeners"));
    unwrap(await client.PATCH("/v2/listeners/{listener_id}", { params: { path: { listener_id: DEPLOYMENT_ID } }, body: { version: "2" } }));
    expect(server.requests).toHaveLength(2);
    for (const seen of server.requests) {
      expect(seen.headers["x-api-key"]).toBe("key-1");
      expect(seen.headers["x-tenant-id"]).toBe("tenant-1");
      expect(seen.headers["x-trace"]).toBe("t");
    }
    expect(server.requests[1]?.method).toBe("PATCH");
    expect(JSON.parse(server.requests[1]!.body)).toEqual({ version: "2" });
    expect(server.requests[1]?.headers["content-type"]).toBe("application/json");
  });

  it("sends no X-Tenant-Id without a tenantId", async () => {
    const server = await serve((_req, res) => sendJson(res, 200, page));
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "key-2" });
    await client.GET("/v2/deployments");
    expect(server.requests[0]?.headers["x-api-key"]).toBe("key-2");
    expect(server.requests[0]?.headers).not.toHaveProperty("x-tenant-id");
  });
});

// Every array query parameter of the document, with the style it declares.
const arrayQueryParameters = operations().flatMap(({ path, method, op, pathItem }) =>
  [...(pathItem.parameters ?? []), ...(op.parameters ?? [])]
    .map((p: unknown) => deref(p))
    .filter((p: any) => p.in === "query" && deref(p.schema)?.type === "array")
    .map((p: any) => ({ path, method, name: p.name as string, style: p.style, explode: p.explode, items: deref(deref(p.schema).items) })),
);

describe("query encoding", () => {
  it("the document declares tag_value_ids, deployment_ids and the revision status filter as comma-separated", () => {
    expect(arrayQueryParameters.map((p) => p.name).sort()).toEqual(["deployment_ids", "status", "tag_value_ids"]);
  });

  for (const p of arrayQueryParameters) {
    it(`${p.method.toUpperCase()} ${p.path} sends ${p.name} as one comma-separated value (style ${p.style}, explode ${p.explode})`, async () => {
      expect(p.style ?? "form").toBe("form");
      expect(p.explode).toBe(false);
      const server = await serve((_req, res) => sendJson(res, 200, page));
      const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k" });
      const values: string[] = p.items.enum ? p.items.enum.slice(0, 2) : [DEPLOYMENT_ID, "7f1c2d4e-0000-4000-8000-000000000002"];
      const pathParams = { deployment_id: DEPLOYMENT_ID };
      // The paths come from the document at run time, so the call is untyped here; the type tests cover typing.
      const get = client.GET as unknown as (path: string, init: object) => Promise<unknown>;
      await get(p.path, { params: { path: pathParams, query: { [p.name]: values } } });
      const seen = server.requests[0]!.url;
      expect(seen.searchParams.getAll(p.name)).toEqual([values.join(",")]);
      expect(seen.search).toContain(`${p.name}=${values.join(",")}`);
    });
  }

  it("sends scalar filters as plain query parameters", async () => {
    const server = await serve((_req, res) => sendJson(res, 200, page));
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k" });
    await client.GET("/v2/deployments", {
      params: { query: { status: "READY", limit: 5, remote_reconciled: false, name_contains: "a b" } },
    });
    const query = server.requests[0]!.url.searchParams;
    expect(Object.fromEntries(query)).toEqual({ status: "READY", limit: "5", remote_reconciled: "false", name_contains: "a b" });
  });
});

describe("retries", () => {
  /** Answers the first `failures` requests with `status` (and headers), then 200. */
  function flaky(failures: number, status: number, headers: Record<string, string> = {}): Handler {
    let seen = 0;
    return (_req, res) => {
      seen += 1;
      if (seen <= failures) sendJson(res, status, { title: "busy", status }, headers);
      else sendJson(res, 200, page);
    };
  }

  it("retries a GET answered 429 after the Retry-After seconds, then returns the 200", async () => {
    const server = await serve(flaky(1, 429, { "Retry-After": "1" }));
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k" });
    const started = Date.now();
    const data = unwrap(await client.GET("/v2/listeners"));
    expect(data).toEqual(page);
    expect(server.requests).toHaveLength(2);
    // Honoured Retry-After: 1 (with a little slack for timer granularity).
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    // Both attempts carried the authentication header set by the middleware.
    expect(server.requests.map((r) => r.headers["x-api-key"])).toEqual(["k", "k"]);
  });

  it("reads Retry-After as an HTTP date too", async () => {
    // HTTP dates have whole seconds: two seconds ahead is between one and two seconds from now.
    const retryAt = new Date(Date.now() + 2000).toUTCString();
    const server = await serve(flaky(1, 503, { "Retry-After": retryAt }));
    // Backoff alone would send the second attempt a few milliseconds after the first.
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k", retry: { minDelayMs: 1, maxDelayMs: 5_000 } });
    unwrap(await client.GET("/v2/listeners"));
    expect(server.requests).toHaveLength(2);
    // Timed on the server; 50 ms of slack for clocks and timers.
    expect(server.requests[1]!.at).toBeGreaterThanOrEqual(Date.parse(retryAt) - 50);
    expect(server.requests[1]!.at - server.requests[0]!.at).toBeGreaterThanOrEqual(900);
  });

  for (const status of [429, 502, 503, 504]) {
    it(`retries a GET answered ${status} with backoff when there is no Retry-After`, async () => {
      const server = await serve(flaky(2, status));
      const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k", retry: { minDelayMs: 5, maxDelayMs: 20 } });
      unwrap(await client.GET("/v2/deployments"));
      expect(server.requests).toHaveLength(3);
    });
  }

  it("stops after `retries` attempts and returns the last error response", async () => {
    const server = await serve(flaky(100, 503));
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k", retry: { retries: 2, minDelayMs: 1, maxDelayMs: 5 } });
    const result = await client.GET("/v2/deployments");
    expect(result.response.status).toBe(503);
    expect(() => unwrap(result)).toThrow(ApiError);
    expect(server.requests).toHaveLength(3);
  });

  it("does not retry with retries: 0", async () => {
    const server = await serve(flaky(1, 429, { "Retry-After": "0" }));
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k", retry: { retries: 0 } });
    const result = await client.GET("/v2/deployments");
    expect(result.response.status).toBe(429);
    expect(server.requests).toHaveLength(1);
  });

  it("does not wait for a Retry-After longer than maxDelayMs: the 429 comes back at once", async () => {
    const server = await serve(flaky(1, 429, { "Retry-After": "120" }));
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k", retry: { maxDelayMs: 1000 } });
    const result = await client.GET("/v2/deployments");
    expect(result.response.status).toBe(429);
    expect(result.response.headers.get("Retry-After")).toBe("120");
    expect(server.requests).toHaveLength(1);
  });

  for (const status of [429, 502, 503, 504]) {
    it(`never retries a PATCH, even on ${status}`, async () => {
      const server = await serve(flaky(1, status, { "Retry-After": "0" }));
      const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k", retry: { minDelayMs: 1 } });
      const result = await client.PATCH("/v2/deployments/{deployment_id}", {
        params: { path: { deployment_id: DEPLOYMENT_ID } },
        body: { source_revision_config: { repo_ref: "main" } },
      });
      expect(result.response.status).toBe(status);
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0]?.method).toBe("PATCH");
    });
  }

  it("retries a GET whose connection drops, and gives up after `retries` attempts", async () => {
    let dropped = 0;
    const server = await serve((_req, res) => {
      if (dropped++ < 2) return void res.socket?.destroy();
      sendJson(res, 200, page);
    });
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k", retry: { minDelayMs: 1, maxDelayMs: 5 } });
    expect(unwrap(await client.GET("/v2/listeners"))).toEqual(page);
    expect(dropped).toBe(3);

    const dead = await serve((_req, res) => void res.socket?.destroy());
    const once = createDeploymentsClient({ baseUrl: dead.baseUrl, apiKey: "k", retry: { retries: 1, minDelayMs: 1, maxDelayMs: 5 } });
    await expect(once.GET("/v2/listeners")).rejects.toThrow(TypeError);
    expect(dead.requests).toHaveLength(2);
  });

  it("a fetch given to one call is used for that call, with the retries", async () => {
    const server = await serve((_req, res) => sendJson(res, 200, page));
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k", retry: { minDelayMs: 1, maxDelayMs: 5 } });
    let calls = 0;
    const flakyFetch = (request: Request) => (++calls === 1 ? Promise.reject(new TypeError("fetch failed")) : fetch(request));
    expect(unwrap(await client.GET("/v2/listeners", { fetch: flakyFetch }))).toEqual(page);
    expect(calls).toBe(2);
    expect(server.requests).toHaveLength(1);
  });

  it("a request that fails before it is sent is not retried", async () => {
    const server = await serve((_req, res) => sendJson(res, 200, page));
    // A retry would wait 30 s first, far past this test's 5 s limit.
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k", retry: { minDelayMs: 30_000, maxDelayMs: 30_000 } });
    // A header value with a line break: building the Request throws, nothing goes out.
    await expect(client.GET("/v2/listeners", { headers: { "X-Trace": "a\nb" } })).rejects.toThrow(TypeError);
    expect(server.requests).toHaveLength(0);
  }, 30_000);

  it("does not retry a PATCH whose connection drops", async () => {
    const server = await serve((_req, res) => void res.socket?.destroy());
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k", retry: { minDelayMs: 1 } });
    await expect(client.PATCH("/v2/listeners/{listener_id}", { params: { path: { listener_id: DEPLOYMENT_ID } }, body: { version: "2" } })).rejects.toThrow(
      TypeError,
    );
    expect(server.requests).toHaveLength(1);
  });

  it("does not retry other error statuses", async () => {
    const server = await serve(flaky(1, 500));
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k", retry: { minDelayMs: 1 } });
    expect((await client.GET("/v2/deployments")).response.status).toBe(500);
    expect(server.requests).toHaveLength(1);
  });

  it("an abort during the backoff rejects with the signal's reason and sends nothing more", async () => {
    const server = await serve(flaky(100, 503, { "Retry-After": "5" }));
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k" });
    const controller = new AbortController();
    const reason = new Error("stop now");
    setTimeout(() => controller.abort(reason), 200);
    await expect(client.GET("/v2/deployments", { signal: controller.signal })).rejects.toBe(reason);
    expect(server.requests).toHaveLength(1);
  });

  it("parseRetryAfter reads seconds (with a fraction too) and HTTP dates", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter("3", now)).toBe(3000);
    expect(parseRetryAfter("1.5", now)).toBe(1500);
    expect(parseRetryAfter(" 0.25 ", now)).toBe(250);
    expect(parseRetryAfter("Sunday, 01-Jan-26 00:00:02 GMT", now)).toBe(2000);
    // Not seconds and not a date, though Date.parse would read them as one.
    expect(parseRetryAfter("-1", now)).toBeUndefined();
    expect(parseRetryAfter("1.", now)).toBeUndefined();
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:10 GMT", now)).toBe(10_000);
    expect(parseRetryAfter("Wed, 31 Dec 2025 00:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});

describe("request bodies JSON cannot carry", () => {
  // [body, the pointer named]: JSON.stringify would write each number as null, which clears the
  // field on the service; the client refuses it with a TypeError naming where it is, and sends nothing.
  const cases: [string, unknown, string][] = [
    ["NaN (a form's empty number field)", { source_config: { resource_spec: { min_scale: Number.NaN } } }, "/source_config/resource_spec/min_scale"],
    ["Infinity", { source_config: { resource_spec: { memory_mb: Number.POSITIVE_INFINITY } } }, "/source_config/resource_spec/memory_mb"],
    [
      "-Infinity in an array item",
      {
        secrets: [
          { name: "A", value: "b" },
          { name: "B", value: Number.NEGATIVE_INFINITY },
        ],
      },
      "/secrets/1/value",
    ],
    ["a key that needs escaping", { source_config: { "a/b~c": Number.NaN } }, "/source_config/a~1b~0c"],
  ];
  it.each(cases)("%s: a TypeError naming the field, nothing sent", async (_name, body, pointer) => {
    const server = await serve((_req, res) => sendJson(res, 200, { id: DEPLOYMENT_ID }));
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k" });
    const params = { path: { deployment_id: DEPLOYMENT_ID } };
    const error = await client.PATCH("/v2/deployments/{deployment_id}", { params, body: body as never }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(new RegExp(`^request body: ${pointer.replaceAll("~", "\\~")} is -?(NaN|Infinity), which JSON cannot carry`));
    expect(server.requests).toEqual([]);
  });

  it("deployRevision with such a patch: the same TypeError before anything is read or sent (not a PATCH whose outcome is unknown)", async () => {
    const server = await serve((_req, res) => sendJson(res, 200, { id: DEPLOYMENT_ID, source: "scm_host", latest_revision_id: null }));
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k" });
    const patch = { source_revision_config: { repo_ref: "main" }, source_config: { resource_spec: { min_scale: Number.NaN } } };
    const error = await deployRevision(client, DEPLOYMENT_ID, patch).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(/^request body: \/source_config\/resource_spec\/min_scale is NaN/);
    expect(server.requests).toEqual([]);
  });

  it("finite numbers, null, undefined members and a value shared by two fields are sent as JSON.stringify writes them", async () => {
    const server = await serve((_req, res) => sendJson(res, 200, { id: DEPLOYMENT_ID }));
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k" });
    const shared = { name: "A", value: "b" };
    const body = { source_config: { resource_spec: { min_scale: 0, cpu: 0.5, memory_mb: null, max_scale: undefined } }, secrets: [shared, shared] };
    unwrap(await client.PATCH("/v2/deployments/{deployment_id}", { params: { path: { deployment_id: DEPLOYMENT_ID } }, body }));
    expect(server.requests[0]!.body).toBe(JSON.stringify(body));
  });
});
