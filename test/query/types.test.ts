// The types of the query options, checked by the compiler (test/check/typecheck.test.ts type-checks the
// project): data typed per operation, init and mutation variables checked like the client's own
// calls, the cache typed through the tagged keys, openapi-react-query's hooks typed from the adapter.
import { QueryClient, type InfiniteData } from "@tanstack/query-core";
import createQueryHooks from "openapi-react-query";
import { describe, expectTypeOf, it } from "vitest";
import { type ApiError, createDeploymentsClient, type ProblemKind, type ResultFor } from "../../src/index.js";
import { createQueries, toOpenapiFetchClient } from "../../src/query/index.js";

// Nothing is sent: the options are only built and their types checked.
const client = createDeploymentsClient({ baseUrl: "http://127.0.0.1:4010", apiKey: "k" });
const q = createQueries(client);
const queryClient = new QueryClient();
const path = { deployment_id: "d" };
// What the client's GET and PATCH resolve with for a path.
type Got<P extends Parameters<typeof client.GET>[0]> = Exclude<ResultFor<P, "get">["data"], undefined>;
type Deployment = Got<"/v2/deployments/{deployment_id}">;
type DeploymentPage = Got<"/v2/deployments">;
type Revision = Got<"/v2/deployments/{deployment_id}/revisions/{revision_id}">;

describe("query option types", () => {
  it("types each GET's data, the cache by key, and each PATCH's variables", () => {
    expectTypeOf(q.getDeployment({ params: { path } }).queryFn).returns.resolves.toEqualTypeOf<Deployment>();
    expectTypeOf(q.listDeployments().queryFn).returns.resolves.toEqualTypeOf<DeploymentPage>();
    expectTypeOf(queryClient.getQueryData(q.getRevision({ params: { path: { ...path, revision_id: "r" } } }).queryKey)).toEqualTypeOf<Revision | undefined>();
    expectTypeOf(queryClient.getQueryData(q.listDeploymentsInfinite().queryKey)).toEqualTypeOf<InfiniteData<DeploymentPage, number> | undefined>();
    expectTypeOf(q.patchDeployment().mutationFn).parameter(0).toHaveProperty("body");
    expectTypeOf(q.patchDeployment().mutationFn).returns.resolves.toEqualTypeOf<Deployment>();
  });

  it("rejects what the client rejects", () => {
    // Compiled, never called.
    const calls = () => {
      // @ts-expect-error the path parameters are required
      q.getDeployment();
      // @ts-expect-error an unknown query parameter
      q.listDeployments({ params: { query: { colour: "red" } } });
      // @ts-expect-error a read-only field is not part of a patch body
      void q.patchDeployment().mutationFn({ params: { path }, body: { status: "READY" } });
      // @ts-expect-error only a revision can be polled until it is terminal
      q.getDeployment({ params: { path } }, { pollUntilTerminal: true });
      // @ts-expect-error lists that are not paged have no Infinite member
      void q.listOAuthProvidersInfinite;
    };
    expectTypeOf(calls).toBeFunction();
  });

  it("openapi-react-query's error has the ApiError's fields", () => {
    const $api = createQueryHooks(toOpenapiFetchClient(client));
    const options = $api.queryOptions("get", "/v2/deployments/{deployment_id}", { params: { path } });
    type QueryError = Parameters<Extract<NonNullable<typeof options.retry>, (...args: never[]) => unknown>>[1];
    expectTypeOf<QueryError["kind"]>().toEqualTypeOf<ProblemKind | undefined>();
    expectTypeOf<QueryError["errors"]>().toEqualTypeOf<ApiError["errors"]>();
  });
});
