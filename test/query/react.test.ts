// @vitest-environment jsdom
// The query options and openapi-react-query in React for real: @tanstack/react-query's hooks
// rendered by Testing Library in jsdom (where TanStack polls: its refetchInterval timers run in a
// browser only), against the simulator over HTTP.
import createQueryHooks from "openapi-react-query";
import { QueryClient, QueryClientProvider, useInfiniteQuery, useMutation, useQuery } from "@tanstack/react-query";
import { renderHook, waitFor } from "@testing-library/react";
import { createElement, type ReactNode } from "react";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ApiError, createDeploymentsClient, TERMINAL_REVISION_STATUSES, type DeploymentsClient, type ProblemKind } from "../../src/index.js";
import { createQueries, toOpenapiFetchClient } from "../../src/query/index.js";
import { SEED_IDS } from "../../src/simulator/core/index.js";
import { startSimulator, type RunningSimulator } from "../../src/simulator/node/index.js";

let simulator: RunningSimulator;
let client: DeploymentsClient;
const sent: string[] = [];

beforeAll(async () => {
  // A revision moves a state every 2 s of simulated time; the poll test advances the clock itself.
  simulator = await startSimulator({ port: 0, quiet: true, stepSeconds: 2 });
  client = createDeploymentsClient({
    baseUrl: simulator.url,
    apiKey: "react-test",
    retry: { retries: 0 },
    fetch: (request) => {
      sent.push(`${request.method} ${new URL(request.url).pathname}`);
      return fetch(request);
    },
  });
});
afterAll(() => simulator?.close());
afterEach(async () => {
  sent.length = 0;
  await simulator.simulator.reset();
});

function setup() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => createElement(QueryClientProvider, { client: queryClient }, children);
  return { queryClient, wrapper };
}

const deployment_id = SEED_IDS.deployment_id;
const missing = "6b0d8a52-3c1e-4f7a-9b2d-1e5f3a7c9d01";

describe("createQueries with @tanstack/react-query", () => {
  it("useQuery, useInfiniteQuery and useMutation take the options as they are; the mutation refreshes the deployment on screen", async () => {
    const { queryClient, wrapper } = setup();
    const q = createQueries(client, { queryClient });
    const { result } = renderHook(
      () => ({
        deployment: useQuery(q.getDeployment({ params: { path: { deployment_id } } })),
        list: useInfiniteQuery(q.listDeploymentsInfinite({ params: { query: { limit: 5 } } })),
        patch: useMutation(q.patchDeployment()),
      }),
      { wrapper },
    );
    await waitFor(() => expect(result.current.deployment.isSuccess && result.current.list.isSuccess).toBe(true));
    expect(result.current.list.data!.pages[0]!.resources).toHaveLength(5);
    expect(result.current.list.hasNextPage).toBe(true);
    const before = result.current.deployment.data!.latest_revision_id;
    const patched = await result.current.patch.mutateAsync({
      params: { path: { deployment_id } },
      body: { source_revision_config: { repo_ref: "feature/x" } },
    });
    expect(patched.latest_revision_id).not.toBe(before);
    // The invalidated deployment query refetched: the hook shows the new revision.
    await waitFor(() => expect(result.current.deployment.data!.latest_revision_id).toBe(patched.latest_revision_id));
  });

  it("getRevision with pollUntilTerminal refetches until the revision's status is terminal, then stops", async () => {
    const { queryClient, wrapper } = setup();
    const q = createQueries(client, { queryClient });
    const patched = await q
      .patchDeployment()
      .mutationFn({ params: { path: { deployment_id } }, body: { source_revision_config: { repo_ref: "feature/poll" } } });
    const revision_id = patched.latest_revision_id!;
    const statuses: string[] = [];
    const { result, unmount } = renderHook(
      () => {
        const r = useQuery(q.getRevision({ params: { path: { deployment_id, revision_id } } }, { pollUntilTerminal: { intervalMs: 20 } }));
        // A sibling that polls forever at the same interval: the clock the "no more polls" check waits on.
        useQuery({ ...q.getDeployment({ params: { path: { deployment_id } } }), refetchInterval: 20 });
        if (r.data?.status && statuses.at(-1) !== r.data.status) statuses.push(r.data.status);
        return r;
      },
      { wrapper },
    );
    // The first answer: the revision is on its way, and the hook keeps polling.
    await waitFor(() => expect(result.current.data?.status).toBeDefined());
    expect(TERMINAL_REVISION_STATUSES).not.toContain(result.current.data!.status);
    await waitFor(() => expect(sent.filter((s) => s.endsWith(`/revisions/${revision_id}`)).length).toBeGreaterThan(2));
    await simulator.simulator.advance(600);
    await waitFor(() => expect(TERMINAL_REVISION_STATUSES).toContain(result.current.data?.status), { timeout: 10_000 });
    const polls = sent.filter((s) => s.endsWith(`/revisions/${revision_id}`)).length;
    // At least the three seen before the advance; the third may be the one that saw the end.
    expect(polls).toBeGreaterThanOrEqual(3);
    expect(statuses.length).toBeGreaterThan(1);
    expect(statuses.at(-1)).toBe("DEPLOYED");
    // Five more intervals by the sibling's own polls: the finished query would have polled by now.
    const siblingPolls = () => sent.filter((s) => s.endsWith(`/deployments/${deployment_id}`)).length;
    const siblingBefore = siblingPolls();
    await waitFor(() => expect(siblingPolls()).toBeGreaterThanOrEqual(siblingBefore + 5), { timeout: 30_000 });
    expect(sent.filter((s) => s.endsWith(`/revisions/${revision_id}`)).length).toBe(polls);
    unmount();
  });

  it("a failed query's error is an ApiError", async () => {
    const { wrapper } = setup();
    const q = createQueries(client);
    const { result } = renderHook(() => useQuery(q.getDeployment({ params: { path: { deployment_id: missing } } })), { wrapper });
    await waitFor(() => expect(result.current.isError).toBe(true));
    expect(result.current.error).toBeInstanceOf(ApiError);
    expect((result.current.error as ApiError).kind).toBe("not-found");
  });
});

describe("openapi-react-query with toOpenapiFetchClient", () => {
  it("createQueryHooks takes the adapted client without a cast: useQuery and useMutation work, errors are ApiErrors", async () => {
    const { wrapper } = setup();
    const $api = createQueryHooks(toOpenapiFetchClient(client));
    const { result } = renderHook(
      () => ({
        found: $api.useQuery("get", "/v2/deployments/{deployment_id}", { params: { path: { deployment_id } } }),
        missing: $api.useQuery("get", "/v2/deployments/{deployment_id}", { params: { path: { deployment_id: missing } } }),
        patch: $api.useMutation("patch", "/v2/listeners/{listener_id}"),
      }),
      { wrapper },
    );
    await waitFor(() => expect(result.current.found.isSuccess && result.current.missing.isError).toBe(true));
    expect(result.current.found.data!.id).toBe(deployment_id);
    const error = result.current.missing.error;
    expect(error).toBeInstanceOf(ApiError);
    const kind: ProblemKind | undefined = error?.kind;
    expect(kind).toBe("not-found");
    const rejected = await result.current.patch
      .mutateAsync({ params: { path: { listener_id: SEED_IDS.listener_id } }, body: { compute_config: { k8s_namespaces: "x" as unknown as string[] } } })
      .catch((e: unknown) => e);
    expect(rejected).toBeInstanceOf(ApiError);
    expect((rejected as ApiError).errors.map((e) => e.pointer)).toEqual(["/compute_config/k8s_namespaces"]);
    // The requests went through the client (its X-Api-Key, its fetch).
    expect(sent).toContain(`GET /v2/deployments/${deployment_id}`);
  });

  it("the client itself is not an openapi-fetch Client for TypeScript; the adapter is", () => {
    // @ts-expect-error DeploymentsClient's GET fixes the init type from the path ("Types of property 'GET' are incompatible")
    createQueryHooks(client);
    expect(typeof createQueryHooks(toOpenapiFetchClient(client)).queryOptions).toBe("function");
    expect(() => toOpenapiFetchClient({} as DeploymentsClient)).toThrow(TypeError);
  });
});
