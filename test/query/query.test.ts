// deployment-management-api/query with the real TanStack Query (query-core's QueryClient and
// observers, the same objects useQuery and its kin drive) against the simulator over HTTP.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { hashKey, InfiniteQueryObserver, MutationObserver, QueryClient, QueryObserver } from "@tanstack/query-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { OPERATIONS } from "../../generated/operations.js";
import { ApiError, createDeploymentsClient, paginate, TERMINAL_REVISION_STATUSES, type DeploymentsClient } from "../../src/index.js";
import { createQueries, QUERY_KEY_ROOT } from "../../src/query/index.js";
import { SEED_IDS } from "../../src/simulator/core/index.js";
import { startSimulator, type RunningSimulator } from "../../src/simulator/node/index.js";
import { document } from "../support/document.js";
import * as walk from "../../src/shared/walk.js";

let simulator: RunningSimulator;
let client: DeploymentsClient;
const sent: string[] = [];

beforeAll(async () => {
  // Revisions move a state every 10 ms of simulated time.
  simulator = await startSimulator({ port: 0, quiet: true, stepSeconds: 0.01 });
  client = createDeploymentsClient({
    baseUrl: simulator.url,
    apiKey: "query-test",
    retry: { retries: 0 },
    fetch: (request) => {
      sent.push(`${request.method} ${new URL(request.url).pathname}${new URL(request.url).search}`);
      return fetch(request);
    },
  });
});
afterAll(() => simulator?.close());
afterEach(async () => {
  sent.length = 0;
  await simulator.simulator.reset();
});

const newQueryClient = () => new QueryClient({ defaultOptions: { queries: { retry: false } } });
const deployment_id = SEED_IDS.deployment_id;

describe("createQueries", () => {
  it("has one member per operation of the document, named by operationId, and <id>Infinite for each paged list", () => {
    const q = createQueries(client);
    const expected = walk.listOperations(document as walk.OpenApiDocument).flatMap(({ operationId, method }) => {
      const paged = (OPERATIONS as Record<string, { paged: boolean }>)[operationId]!.paged;
      expect(["get", "patch"]).toContain(method);
      return paged ? [operationId, `${operationId}Infinite`] : [operationId];
    });
    expect(Object.keys(q).sort()).toEqual(expected.sort());
    expect(Object.keys(q).filter((k) => k.endsWith("Infinite"))).toEqual(["listDeploymentsInfinite", "listRevisionsInfinite", "listListenersInfinite"]);
  });

  it("keys are hierarchical and serializable: a deployment's revisions sit under the deployment", () => {
    const q = createQueries(client);
    const revision = q.getRevision({ params: { path: { deployment_id, revision_id: "r1" } } }).queryKey;
    const revisions = q.listRevisions({ params: { path: { deployment_id }, query: { limit: 5, status: ["DEPLOYED"] } } }).queryKey;
    expect(q.getDeployment({ params: { path: { deployment_id } } }).queryKey).toEqual([QUERY_KEY_ROOT, "deployments", deployment_id]);
    expect(revision).toEqual(["dms", "deployments", deployment_id, "revisions", "r1"]);
    expect(revisions).toEqual(["dms", "deployments", deployment_id, "revisions", { limit: 5, status: ["DEPLOYED"] }]);
    expect(q.listDeployments().queryKey).toEqual(["dms", "deployments", {}]);
    // undefined filters do not make another key for the same request.
    expect(q.listDeployments({ params: { query: { status: undefined, limit: 3 } } }).queryKey).toEqual(["dms", "deployments", { limit: 3 }]);
    expect(JSON.parse(JSON.stringify(revisions))).toEqual(revisions);
    expect(q.listDeploymentsInfinite().queryKey).toEqual(["dms", "deployments", {}, "infinite"]);
  });

  it("a GET fetches through the client: QueryClient.fetchQuery resolves with the simulator's deployment", async () => {
    const q = createQueries(client);
    const qc = newQueryClient();
    const options = q.getDeployment({ params: { path: { deployment_id } } });
    const deployment = await qc.fetchQuery(options);
    expect(deployment.id).toBe(deployment_id);
    expect(qc.getQueryData(options.queryKey)?.name).toBe(deployment.name);
    expect(sent).toEqual([`GET /v2/deployments/${deployment_id}`]);
  });

  it("an error response rejects with an ApiError (kind, status, field errors)", async () => {
    const q = createQueries(client);
    const qc = newQueryClient();
    const missing = await qc
      .fetchQuery(q.getDeployment({ params: { path: { deployment_id: "6b0d8a52-3c1e-4f7a-9b2d-1e5f3a7c9d01" } } }))
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ApiError);
    expect(missing).toMatchObject({ status: 404, kind: "not-found" });
    const invalid = await qc.fetchQuery(q.listDeployments({ params: { query: { limit: 1000 } } })).catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(ApiError);
    expect((invalid as ApiError).kind).toBe("validation");
    expect((invalid as ApiError).errors.map((e) => e.parameter)).toEqual(["limit"]);
  });

  it("a missing path parameter is a TypeError naming it, before any request", () => {
    const q = createQueries(client);
    expect(() => (q.getDeployment as (init?: unknown) => unknown)({ params: { path: {} } })).toThrow(/getDeployment: params.path.deployment_id is missing/);
    expect(() => createQueries({} as DeploymentsClient)).toThrow(TypeError);
    expect(() => q.getRevision({ params: { path: { deployment_id, revision_id: "r" } } }, { pollUntilTerminal: { intervalMs: -1 } })).toThrow(/intervalMs/);
  });

  // [value, what the TypeError says]: every value the client refuses to send is refused when the key
  // is made, in the client's words (src/client/path-params.ts), for every member with a path parameter.
  const badPathValues: [unknown, RegExp][] = [
    [undefined, /is missing$/],
    [null, /must be a string, got null$/],
    [{ id: "x" }, /must be a string, got object$/],
    [Number.NaN, /must be a string, got number$/],
    ["", /must not be empty$/],
    [".", /must not be "\.": it would leave its path segment$/],
    ["%2E%2e", /must not be "%2E%2e": it would leave its path segment$/],
    ["\uD800", /must be well-formed Unicode/],
  ];
  it.each(badPathValues)("path parameter %j: every member with a path parameter throws a TypeError naming it, before any request", async (value, said) => {
    const q = createQueries(client) as unknown as Record<string, (init?: unknown) => unknown>;
    const members = Object.entries(OPERATIONS).filter(([, op]) => op.path.includes("{"));
    expect(members.length).toBeGreaterThan(2);
    for (const [operationId, op] of members) {
      const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
      const last = names.at(-1)!;
      const path = Object.fromEntries(names.map((name) => [name, name === last ? value : "ok"]));
      const message = new RegExp(`^${operationId}: params\\.path\\.${last} ${said.source}`);
      if (op.method === "get") expect(() => q[operationId]!({ params: { path } }), operationId).toThrow(message);
      else
        await expect((q[operationId]!() as { mutationFn: (v: unknown) => Promise<unknown> }).mutationFn({ params: { path }, body: {} })).rejects.toThrow(
          message,
        );
    }
  });

  it("keys are distinct per parameter value and stable for the same request: a number and its text, undefined query values, query key order", () => {
    const q = createQueries(client);
    const key = (init: Parameters<typeof q.listRevisions>[0]) => JSON.stringify(q.listRevisions(init).queryKey);
    const path = { deployment_id };
    expect(key({ params: { path, query: { limit: 5, offset: undefined } } })).toBe(key({ params: { path, query: { limit: 5 } } }));
    expect(key({ params: { path, query: { limit: 5, offset: 5 } } })).not.toBe(key({ params: { path, query: { limit: 5 } } }));
    expect(key({ params: { path: { deployment_id: "a" } } })).not.toBe(key({ params: { path: { deployment_id: "b" } } }));
    // A UUID in either case names one resource: one key (the request still sends what it was given).
    const id = "3f2b8c1e-5a47-4d6b-9e21-7c0a4f8e1b52";
    expect(JSON.stringify(q.getDeployment({ params: { path: { deployment_id: id.toUpperCase() } } }).queryKey)).toBe(
      JSON.stringify(q.getDeployment({ params: { path: { deployment_id: id } } }).queryKey),
    );
    expect(key({ params: { path: { deployment_id: "AB" } } })).not.toBe(key({ params: { path: { deployment_id: "ab" } } }));
    // TanStack hashes keys with their objects' keys sorted: the same query written in another order is one cache entry.
    expect(hashKey(q.listDeployments({ params: { query: { limit: 5, offset: 10 } } }).queryKey)).toBe(
      hashKey(q.listDeployments({ params: { query: { offset: 10, limit: 5 } } }).queryKey),
    );
  });

  it("queryFn passes TanStack's signal on: cancelling the query aborts the request in flight", async () => {
    let closed!: () => void;
    const aborted = new Promise<void>((resolve) => (closed = resolve));
    let arrived!: () => void;
    const arrivedP = new Promise<void>((resolve) => (arrived = resolve));
    // A server that never answers; the request ends only when the client aborts it.
    const server = createServer((_req, res) => {
      arrived();
      res.on("close", () => closed());
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const slow = createDeploymentsClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, apiKey: "k", retry: { retries: 0 } });
      const q = createQueries(slow);
      const qc = newQueryClient();
      const options = q.getDeployment({ params: { path: { deployment_id } } });
      const observer = new QueryObserver(qc, options);
      const unsubscribe = observer.subscribe(() => {});
      await arrivedP;
      await qc.cancelQueries({ queryKey: options.queryKey });
      await aborted;
      unsubscribe();
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("an infinite list pages by the response's offset and stops after a short page: the same items paginate() walks", async () => {
    const q = createQueries(client);
    const qc = newQueryClient();
    const observer = new InfiniteQueryObserver(qc, q.listDeploymentsInfinite({ params: { query: { limit: 7 } } }));
    await observer.refetch();
    let result = observer.getCurrentResult();
    while (result.hasNextPage) result = await observer.fetchNextPage();
    const pages = result.data!.pages;
    const all: string[] = [];
    for await (const d of paginate(client, "/v2/deployments", { query: { limit: 7 } })) all.push(d.id);
    expect(pages.flatMap((p) => p.resources.map((d) => d.id))).toEqual(all);
    expect(all.length).toBeGreaterThan(14);
    expect(result.data!.pageParams).toEqual(pages.map((_, i) => i * 7));
    expect(pages.at(-1)!.resources.length).toBeLessThan(7);
    expect(sent.filter((s) => s.startsWith("GET /v2/deployments?"))[0]).toBe("GET /v2/deployments?limit=7&offset=0");
  });

  it("a full page whose offset does not advance is an error, not an endless list", async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ resources: [{ id: "a" }, { id: "b" }], offset: 0 }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const stuck = createDeploymentsClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, apiKey: "k", retry: { retries: 0 } });
      const error = await newQueryClient()
        .fetchInfiniteQuery(createQueries(stuck).listListenersInfinite({ params: { query: { limit: 2 } } }))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).detail).toMatch(/offset 0 does not advance past 0/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("pollUntilTerminal: the interval until a terminal status, false from then on (and after an error)", () => {
    const q = createQueries(client);
    const init = { params: { path: { deployment_id, revision_id: SEED_IDS.revision_id } } };
    const interval = q.getRevision(init, { pollUntilTerminal: { intervalMs: 25 } }).refetchInterval!;
    // The options type the polled data as a Revision; these states carry only what the rule reads.
    const at = (status: "pending" | "error" | "success", data: unknown) => interval({ state: { status, data: data as never } });
    expect(at("pending", undefined)).toBe(25);
    expect(at("success", { status: "BUILDING" })).toBe(25);
    for (const status of TERMINAL_REVISION_STATUSES) expect(at("success", { status })).toBe(false);
    expect(at("error", undefined)).toBe(false);
    // A status that is not text would never become terminal: polling stops (waitForRevision rejects).
    for (const status of [undefined, null, 7, { x: 1 }]) expect(at("success", { status })).toBe(false);
    expect(at("success", null)).toBe(false);
    expect(q.getRevision(init, { pollUntilTerminal: true }).refetchInterval!({ state: { status: "pending", data: undefined } })).toBe(2000);
    // Without the option there is no interval.
    expect(q.getRevision(init).refetchInterval).toBeUndefined();
  });

  it("a PATCH mutation takes { params, body }; given the queryClient, success invalidates exactly that deployment, its revisions and the deployment lists", async () => {
    const qc = newQueryClient();
    const q = createQueries(client, { queryClient: qc });
    const other = (await qc.fetchQuery(q.listDeployments({ params: { query: { limit: 2 } } }))).resources[1]!.id;
    const keys = {
      deployment: q.getDeployment({ params: { path: { deployment_id } } }).queryKey,
      list: q.listDeployments({ params: { query: { limit: 2 } } }).queryKey,
      infiniteList: q.listDeploymentsInfinite().queryKey,
      revisions: q.listRevisions({ params: { path: { deployment_id } } }).queryKey,
      revision: q.getRevision({ params: { path: { deployment_id, revision_id: SEED_IDS.revision_id } } }).queryKey,
      otherDeployment: q.getDeployment({ params: { path: { deployment_id: other } } }).queryKey,
      otherRevisions: q.listRevisions({ params: { path: { deployment_id: other } } }).queryKey,
      listeners: q.listListeners().queryKey,
      providers: q.listOAuthProviders().queryKey,
    };
    for (const key of Object.values(keys)) qc.setQueryData(key as readonly unknown[], { cached: true });
    const mutation = new MutationObserver(qc, q.patchDeployment());
    const deployment = await mutation.mutate({ params: { path: { deployment_id } }, body: { source_config: { build_on_push: false } } });
    expect(deployment.id).toBe(deployment_id);
    const invalidated = Object.entries(keys)
      .filter(([, key]) => qc.getQueryState(key as readonly unknown[])?.isInvalidated)
      .map(([name]) => name);
    expect(invalidated.sort()).toEqual(["deployment", "infiniteList", "list", "revision", "revisions"]);
  });

  it("a listener patch invalidates that listener and the listener lists only", async () => {
    const qc = newQueryClient();
    const q = createQueries(client, { queryClient: qc });
    const listener_id = SEED_IDS.listener_id;
    const keys = {
      lists: q.listListeners({ params: { query: { limit: 1 } } }).queryKey,
      deployments: q.listDeployments().queryKey,
      deployment: q.getDeployment({ params: { path: { deployment_id } } }).queryKey,
    };
    for (const key of Object.values(keys)) qc.setQueryData(key as readonly unknown[], { cached: true });
    const listener = await qc
      .getMutationCache()
      .build(qc, q.patchListener())
      .execute({ params: { path: { listener_id } }, body: { compute_config: { k8s_namespaces: ["a", "b"] } } });
    expect(listener.compute_config?.k8s_namespaces).toEqual(["a", "b"]);
    expect(
      Object.entries(keys)
        .filter(([, key]) => qc.getQueryState(key as readonly unknown[])?.isInvalidated)
        .map(([name]) => name),
    ).toEqual(["lists"]);
  });

  it("a rejected PATCH is an ApiError naming the field, and invalidates nothing", async () => {
    const qc = newQueryClient();
    const q = createQueries(client, { queryClient: qc });
    const key = q.getDeployment({ params: { path: { deployment_id } } }).queryKey;
    qc.setQueryData(key, undefined as never);
    qc.setQueryData(key as readonly unknown[], { cached: true });
    const error = await new MutationObserver(qc, q.patchDeployment())
      .mutate({ params: { path: { deployment_id } }, body: { source_config: { listener_id: "not-a-uuid" } } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).errors.map((e) => e.pointer)).toEqual(["/source_config/listener_id"]);
    expect(qc.getQueryState(key as readonly unknown[])?.isInvalidated).toBe(false);
  });
});
