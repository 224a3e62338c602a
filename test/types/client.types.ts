// Type-level tests of the client (src/index.ts), checked by test/check/typecheck.test.ts with tsc 5.9 and 7:
// each @ts-expect-error must be an error, and everything else must compile.
import {
  ApiError,
  createDeploymentsClient,
  deployRevision,
  paginate,
  type REVISION_STATUSES,
  type TERMINAL_REVISION_STATUSES,
  unwrap,
  waitForRevision,
  type components,
  type Deployment,
  type DeploymentPatch,
  type DeploymentStatus,
  type ItemOf,
  type Listener,
  type ListenerPatch,
  type Problem,
  type PROBLEM_TYPES,
  type ProblemKind,
  RequestTimeoutError,
  type ResourceSpec,
  type Revision,
  type RevisionListItem,
  type RevisionStatus,
  type Source,
  type TerminalRevisionStatus,
} from "../../src/index.js";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const assert = <T extends true>(_: T) => undefined;
// Response data passes through openapi-fetch's Readable<>, the same shape under another name.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Schemas = components["schemas"];

// The aliases are the document's schemas.
assert<Equal<Deployment, Schemas["Deployment"]>>(true);
assert<Equal<DeploymentPatch, Schemas["DeploymentPatch"]>>(true);
assert<Equal<ListenerPatch, Schemas["ListenerPatch"]>>(true);
assert<Equal<Problem, Schemas["Problem"]>>(true);
assert<Equal<Source, Schemas["DeploymentSource"]>>(true);
assert<Equal<DeploymentStatus, Schemas["DeploymentStatus"]>>(true);
// ResourceSpec names the spec; where a deployment holds one, it may be null (the service defaults).
assert<Equal<ResourceSpec, NonNullable<Schemas["ResourceSpec"]>>>(true);
assert<Equal<Schemas["SourceConfig"]["resource_spec"], ResourceSpec | null | undefined>>(true);
// @ts-expect-error a ResourceSpec is a spec, not null
const nullSpec: ResourceSpec = null;
export { nullSpec };
assert<Equal<(typeof REVISION_STATUSES)[number], RevisionStatus>>(true);
assert<Equal<(typeof TERMINAL_REVISION_STATUSES)[number], TerminalRevisionStatus>>(true);

// Item types of paginate follow the path.
assert<Equal<ItemOf<"/v2/deployments">, Deployment>>(true);
assert<Equal<ItemOf<"/v2/deployments/{deployment_id}/revisions">, RevisionListItem>>(true);
assert<Equal<ItemOf<"/v2/listeners">, Listener>>(true);

const client = createDeploymentsClient({ baseUrl: "http://127.0.0.1:4010", apiKey: "k", retry: { retries: 0 } });
const deployment_id = "6b0d8a52-3c1e-4f7a-9b2d-1e5f3a7c9d01";

export async function typedCalls() {
  const { data, error } = await client.GET("/v2/deployments/{deployment_id}", { params: { path: { deployment_id } } });
  if (data) assert<Same<typeof data, Deployment>>(true);
  if (error) assert<Same<typeof error, Problem>>(true);

  const one = unwrap(await client.GET("/v2/deployments/{deployment_id}", { params: { path: { deployment_id } } }));
  assert<Same<typeof one, Deployment>>(true);
  const page = unwrap(await client.GET("/v2/deployments", { params: { query: { status: "READY", tag_value_ids: ["a"] } } }));
  assert<Same<typeof page.resources, Deployment[]>>(true);

  // @ts-expect-error a deployment status that does not exist
  await client.GET("/v2/deployments", { params: { query: { status: "RUNNING" } } });
  // @ts-expect-error limit is a number, not a string
  await client.GET("/v2/deployments", { params: { query: { limit: "10" } } });
  // @ts-expect-error tag_value_ids is a list, sent comma-separated by the client
  await client.GET("/v2/deployments", { params: { query: { tag_value_ids: "a,b" } } });
  // @ts-expect-error revision status filters are revision states
  await client.GET("/v2/deployments/{deployment_id}/revisions", { params: { path: { deployment_id }, query: { status: ["READY"] } } });
  // @ts-expect-error a query parameter the document does not have
  await client.GET("/v2/listeners", { params: { query: { page: 2 } } });
  // @ts-expect-error the path parameter is required
  await client.GET("/v2/deployments/{deployment_id}", {});
  // @ts-expect-error there is no DELETE in the interface
  await client.DELETE("/v2/deployments/{deployment_id}", { params: { path: { deployment_id } } });

  const patched = unwrap(
    await client.PATCH("/v2/deployments/{deployment_id}", { params: { path: { deployment_id } }, body: { secrets: [{ name: "A", value: "b" }] } }),
  );
  assert<Same<typeof patched, Deployment>>(true);
  // @ts-expect-error latest_revision_id is read-only: not part of the patch body
  await client.PATCH("/v2/deployments/{deployment_id}", { params: { path: { deployment_id } }, body: { latest_revision_id: null } });
  // @ts-expect-error status is read-only
  await client.PATCH("/v2/deployments/{deployment_id}", { params: { path: { deployment_id } }, body: { status: "READY" } });
  // @ts-expect-error name cannot be changed after creation
  await client.PATCH("/v2/deployments/{deployment_id}", { params: { path: { deployment_id } }, body: { name: "x" } });
  // @ts-expect-error repo_commit_sha is resolved by the service, not sent
  await client.PATCH("/v2/deployments/{deployment_id}", { params: { path: { deployment_id } }, body: { source_revision_config: { repo_commit_sha: "abc" } } });
  const listenerPatch: ListenerPatch = { version: "2", compute_config: { k8s_namespaces: ["agents"] } };
  await client.PATCH("/v2/listeners/{listener_id}", { params: { path: { listener_id: deployment_id } }, body: listenerPatch });
  // @ts-expect-error compute_id cannot be changed after creation
  await client.PATCH("/v2/listeners/{listener_id}", { params: { path: { listener_id: deployment_id } }, body: { compute_id: "other" } });
}

export async function helpers() {
  for await (const d of paginate(client, "/v2/deployments", { query: { status: "READY" } })) {
    assert<Equal<typeof d, Deployment>>(true);
  }
  for await (const d of paginate(client, "/v2/deployments")) assert<Equal<typeof d, Deployment>>(true);
  for await (const r of paginate(client, "/v2/deployments/{deployment_id}/revisions", { path: { deployment_id } })) {
    assert<Equal<typeof r, RevisionListItem>>(true);
  }
  // @ts-expect-error the revision list needs its deployment_id
  paginate(client, "/v2/deployments/{deployment_id}/revisions");
  // @ts-expect-error the provider list is not paged
  paginate(client, "/v2/auth/providers");
  // @ts-expect-error filters are typed per list
  paginate(client, "/v2/listeners", { query: { status: "READY" } });

  const revision = await waitForRevision(client, deployment_id, "r", {
    timeoutMs: 1000,
    intervalMs: 10,
    signal: AbortSignal.timeout(5000),
    onStatus: (status) => assert<Equal<typeof status, RevisionStatus>>(true),
  });
  assert<Equal<typeof revision, Revision>>(true);
  const { revision: deployed, deployment } = await deployRevision(client, deployment_id, { source_revision_config: { repo_ref: "main" } });
  assert<Equal<typeof deployed, Revision>>(true);
  assert<Equal<typeof deployment, Deployment>>(true);
  // @ts-expect-error deployRevision takes a DeploymentPatch: read-only fields are rejected
  await deployRevision(client, deployment_id, { active_revision_id: null });

  try {
    unwrap(await client.GET("/v2/listeners"));
  } catch (error) {
    if (error instanceof ApiError) {
      assert<Equal<typeof error.status, number>>(true);
      assert<Equal<typeof error.errors, Schemas["ProblemFieldError"][]>>(true);
      // Always filled: no undefined checks needed to print them.
      assert<Equal<typeof error.title, string>>(true);
      assert<Equal<typeof error.detail, string>>(true);
      assert<Equal<typeof error.method, string>>(true);
      assert<Equal<typeof error.path, string>>(true);
      assert<Equal<typeof error.kind, ProblemKind | undefined>>(true);
      assert<Equal<ProblemKind, keyof typeof PROBLEM_TYPES>>(true);
      assert<Equal<(typeof error.errors)[number]["code"], string | undefined>>(true);
      if (error.kind === "not-found" || error.kind === "validation" || error.kind === "rate-limited") void error.status;
      // @ts-expect-error not a kind of PROBLEM_TYPES
      if (error.kind === "conflict") void error.status;
    }
    if (error instanceof RequestTimeoutError) {
      assert<Equal<typeof error.timeoutMs, number>>(true);
      assert<Equal<typeof error.method, string>>(true);
    }
  }
  assert<Equal<(typeof PROBLEM_TYPES)["not-found"]["status"], 404>>(true);
  assert<Equal<(typeof PROBLEM_TYPES)["validation"]["type"], "urn:deployment-management-api:problem:validation">>(true);
}

// apiKey may be left out: a same-origin proxy adds it.
createDeploymentsClient({ baseUrl: "/api" });
// @ts-expect-error apiKey is a string
createDeploymentsClient({ baseUrl: "http://127.0.0.1:4010", apiKey: 1 });
// @ts-expect-error retry options are numbers
createDeploymentsClient({ baseUrl: "http://127.0.0.1:4010", apiKey: "k", retry: { retries: "3" } });

// timeoutMs is a number of milliseconds per attempt.
createDeploymentsClient({ baseUrl: "http://127.0.0.1:4010", apiKey: "k", timeoutMs: 5_000 });
// @ts-expect-error timeoutMs is a number, not a duration string
createDeploymentsClient({ baseUrl: "http://127.0.0.1:4010", apiKey: "k", timeoutMs: "5s" });
// @ts-expect-error the timeout is per client, not a retry option
createDeploymentsClient({ baseUrl: "http://127.0.0.1:4010", apiKey: "k", retry: { timeoutMs: 5_000 } });
