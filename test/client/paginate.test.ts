// paginate over real HTTP: a local node:http server that generates pages of a list of any length,
// following the document's paging rule (response offset = request offset + count; short page = last).
import { afterEach, describe, expect, it } from "vitest";
import { ApiError, createDeploymentsClient, DEFAULT_PAGE_SIZE, paginate } from "../../src/index.js";
import { type LocalServer, listServer, sendJson, startLocalServer } from "./local-server.js";

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const DEPLOYMENT_ID = "7f1c2d4e-0000-4000-8000-000000000001";

describe("paginate", () => {
  it("a 200 that is JSON but not a page is an ApiError, not a TypeError from inside the loop", async () => {
    server = await startLocalServer((_req, res) => sendJson(res, 200, { items: [] }));
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k" });
    const walk = async () => {
      for await (const _ of paginate(client, "/v2/listeners")) void _;
    };
    await expect(walk()).rejects.toThrow(ApiError);
    await expect(walk()).rejects.toMatchObject({ status: 200, method: "GET", path: "/v2/listeners", title: "Invalid response body" });
  });

  it("walks every page of /v2/deployments, sending the filters, the limit and the returned offset", async () => {
    server = await listServer(45);
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k" });
    const ids: string[] = [];
    for await (const deployment of paginate(client, "/v2/deployments", { query: { status: "READY", limit: 20 } })) {
      ids.push(deployment.id);
    }
    expect(ids).toEqual(Array.from({ length: 45 }, (_, i) => `item-${i}`));
    expect(server.requests.map((r) => Object.fromEntries(r.url.searchParams))).toEqual([
      { status: "READY", limit: "20", offset: "0" },
      { status: "READY", limit: "20", offset: "20" },
      { status: "READY", limit: "20", offset: "40" },
    ]);
  });

  it("sends the largest page size when no limit is given, and stops at an empty page", async () => {
    server = await listServer(2 * DEFAULT_PAGE_SIZE);
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k" });
    let count = 0;
    for await (const _ of paginate(client, "/v2/listeners")) count++;
    expect(count).toBe(2 * DEFAULT_PAGE_SIZE);
    // Two full pages, then an empty one ends the walk.
    expect(server.requests.map((r) => r.url.searchParams.get("offset"))).toEqual(["0", "100", "200"]);
    expect(server.requests.every((r) => r.url.searchParams.get("limit") === String(DEFAULT_PAGE_SIZE))).toBe(true);
  });

  it("fills in the path of the revision list and starts at a given offset", async () => {
    server = await listServer(30);
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k" });
    const ids: (string | undefined)[] = [];
    const revisions = paginate(client, "/v2/deployments/{deployment_id}/revisions", {
      path: { deployment_id: DEPLOYMENT_ID },
      query: { limit: 10, offset: 10, status: ["DEPLOYED", "DEPLOY_FAILED"] },
    });
    for await (const revision of revisions) ids.push(revision.id);
    expect(ids).toHaveLength(20);
    expect(server.requests[0]?.url.pathname).toBe(`/v2/deployments/${DEPLOYMENT_ID}/revisions`);
    expect(server.requests[0]?.url.searchParams.get("status")).toBe("DEPLOYED,DEPLOY_FAILED");
  });

  it("is lazy: fetches the next page only when the loop reaches it", async () => {
    server = await listServer(1000);
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k" });
    const items = paginate(client, "/v2/deployments", { query: { limit: 10 } });
    expect(server.requests).toHaveLength(0);
    let seen = 0;
    for await (const _ of items) {
      if (++seen === 15) break;
    }
    expect(server.requests).toHaveLength(2);
  });

  it("stops with the signal's reason when aborted, between items and before the next page", async () => {
    server = await listServer(1000);
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k" });
    const controller = new AbortController();
    const reason = new Error("enough");
    let seen = 0;
    const walk = async () => {
      for await (const _ of paginate(client, "/v2/deployments", { query: { limit: 10 }, signal: controller.signal })) {
        if (++seen === 5) controller.abort(reason);
      }
    };
    await expect(walk()).rejects.toBe(reason);
    expect(seen).toBe(5);
    expect(server.requests).toHaveLength(1);
  });

  it("throws ApiError on an error page", async () => {
    server = await startLocalServer((req, res) =>
      req.url.searchParams.get("offset") === "0"
        ? sendJson(res, 200, { resources: [{ id: "a" }, { id: "b" }], offset: 2 })
        : sendJson(res, 422, { title: "Unprocessable Entity", errors: [{ parameter: "offset", detail: "too far" }] }),
    );
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k" });
    const seen: string[] = [];
    const walk = async () => {
      for await (const d of paginate(client, "/v2/deployments", { query: { limit: 2 } })) seen.push(d.id);
    };
    await expect(walk()).rejects.toMatchObject({ name: "ApiError", status: 422, method: "GET", path: "/v2/deployments" });
    await expect(walk()).rejects.toBeInstanceOf(ApiError);
    expect(seen).toEqual(["a", "b", "a", "b"]);
  });

  it("refuses to loop when the server does not advance the offset", async () => {
    server = await startLocalServer((_req, res) => sendJson(res, 200, { resources: [{ id: "a" }], offset: 0 }));
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k" });
    const walk = async () => {
      for await (const _ of paginate(client, "/v2/listeners", { query: { limit: 1 } }));
    };
    await expect(walk()).rejects.toMatchObject({ name: "ApiError", detail: "the response offset 0 does not advance past 0" });
  });
});
