// Type-level tests of generated/schema.d.ts. Checked by test/check/typecheck.test.ts with tsc 5.9 and 7:
// each @ts-expect-error must be an error, and everything else must compile.
import type { components, operations } from "../../generated/schema.js";
import type { DEPLOYMENT_STATUSES, REVISION_STATUSES, SOURCES, TERMINAL_REVISION_STATUSES } from "../../generated/constants.js";

type Schemas = components["schemas"];
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const assert = <T extends true>(_: T) => undefined;

// Status fields are exactly the interface's unions.
assert<Equal<Schemas["DeploymentStatus"], "AWAITING_DATABASE" | "READY" | "UNUSED" | "AWAITING_DELETE" | "UNKNOWN">>(true);
assert<
  Equal<
    Schemas["RevisionStatus"],
    | "CREATING"
    | "QUEUED"
    | "AWAITING_BUILD"
    | "BUILDING"
    | "AWAITING_DEPLOY"
    | "DEPLOYING"
    | "CREATE_FAILED"
    | "BUILD_FAILED"
    | "DEPLOY_FAILED"
    | "DEPLOYED"
    | "SKIPPED"
    | "INTERRUPTED"
    | "UNKNOWN"
  >
>(true);
assert<Equal<Schemas["Deployment"]["status"], Schemas["DeploymentStatus"]>>(true);
assert<Equal<Schemas["DeploymentSource"], "scm_host" | "external_docker" | "internal_docker" | "internal_source">>(true);
assert<Equal<Schemas["RevisionSource"], "scm_host" | "internal_docker" | "internal_source" | null>>(true);

// The runtime constants carry the same values as the unions.
assert<Equal<(typeof DEPLOYMENT_STATUSES)[number], Schemas["DeploymentStatus"]>>(true);
assert<Equal<(typeof REVISION_STATUSES)[number], Schemas["RevisionStatus"]>>(true);
assert<Equal<(typeof SOURCES)[number], Schemas["DeploymentSource"]>>(true);
assert<Equal<(typeof TERMINAL_REVISION_STATUSES)[number], "DEPLOYED" | "CREATE_FAILED" | "BUILD_FAILED" | "DEPLOY_FAILED" | "SKIPPED" | "INTERRUPTED">>(true);

// Nullability exactly as the interface marks it.
assert<Equal<Schemas["Deployment"]["latest_revision_id"], string | null>>(true);
assert<Equal<Schemas["Deployment"]["active_revision_id"], string | null>>(true);
assert<Equal<Schemas["Deployment"]["name"], string>>(true);
assert<Equal<Schemas["OAuthProvider"]["code_challenge_method"], string | null>>(true);
assert<Equal<Schemas["OAuthProvider"]["token_endpoint_auth_method"], string | undefined>>(true);

// What the real service sends: ids and states that are always there need no `!`, and fields it
// sends as null are `| null`.
declare const revision: Schemas["Revision"];
declare const page: Schemas["RevisionPage"];
declare const listener: Schemas["Listener"];
declare const connection: Schemas["AgentConnection"];
declare const spec: NonNullable<NonNullable<Schemas["Deployment"]["source_config"]["resource_spec"]>>;
const revisionIds: string[] = [revision.id, page.resources[0]!.id];
const revisionStatus: Schemas["RevisionStatus"] = page.resources[0]!.status;
const revisionSource: Schemas["DeploymentSource"] = revision.source;
const computeType: string = listener.compute_type;
const listenerId: string = listener.id;
const scopes: string[] = connection.scopes;
assert<Equal<Schemas["Revision"]["id"], string>>(true);
assert<Equal<Schemas["Revision"]["status"], Schemas["RevisionStatus"]>>(true);
assert<Equal<Schemas["RevisionPage"]["resources"][number], Schemas["Revision"]>>(true);
assert<Equal<Schemas["Listener"]["version"], string | null | undefined>>(true);
assert<Equal<Schemas["ListenerPatch"]["version"], string | undefined>>(true);
assert<Equal<Schemas["AgentConnection"]["expires_at"], string | null>>(true);
assert<Equal<Schemas["AgentConnection"]["provider_account_label"], string | null>>(true);
assert<Equal<typeof spec.cpu, number | null | undefined>>(true);
assert<Equal<typeof spec.labels, { [key: string]: string } | null | undefined>>(true);
assert<Equal<NonNullable<Schemas["Deployment"]["source_config"]["deployment_type"]>, Schemas["DeploymentType"]>>(true);
assert<Equal<Schemas["Container"]["name"], string>>(true);
assert<Equal<Schemas["EnvVar"]["value"], string | null | undefined>>(true);
// @ts-expect-error cpu may be null: it is not a plain number
const cpu: number | undefined = spec.cpu;
// @ts-expect-error a listener's version may be null
const version: string | undefined = listener.version;
// @ts-expect-error deployment_type is set by the service, not sent in a patch
const withType: Schemas["DeploymentPatch"] = { source_config: { deployment_type: "prod" } };

type Patch = Schemas["DeploymentPatch"];
const ok: Patch = {
  revision_source: "internal_source",
  source_config: { build_on_push: null, resource_spec: { min_scale: 1 } },
  source_revision_config: { repo_ref: "main" },
  secrets: [{ name: "A", value: "b" }],
  secret_references: null,
};
const scaleOnly: Patch = { source_config: { listener_config: { k8s_namespace: "agents" } } };

// @ts-expect-error name cannot be changed after creation
const withName: Patch = { name: "renamed" };
// @ts-expect-error source cannot be changed after creation
const withSource: Patch = { source: "scm_host" };
// @ts-expect-error repo_commit_sha is resolved by the service, not sent
const withSha: Patch = { source_revision_config: { repo_commit_sha: "abc" } };
// @ts-expect-error external_docker is not a revision_source
const externalDocker: Patch = { revision_source: "external_docker" };
// @ts-expect-error a secret needs a value
const secretWithoutValue: Patch = { secrets: [{ name: "A" }] };
// @ts-expect-error listener patches cannot change compute_id
const listenerPatch: Schemas["ListenerPatch"] = { compute_id: "other-cluster" };

// Query parameters are typed: limit is a number and status a known state.
type ListQuery = NonNullable<operations["listDeployments"]["parameters"]["query"]>;
const query: ListQuery = { limit: 20, status: "READY", deployment_type: "prod", tag_value_ids: ["a", "b"] };
// @ts-expect-error limit is a number
const badLimit: ListQuery = { limit: "20" };
// @ts-expect-error not a deployment state
const badStatus: ListQuery = { status: "RUNNING" };
type RevisionQuery = NonNullable<operations["listRevisions"]["parameters"]["query"]>;
const revisionQuery: RevisionQuery = { status: ["DEPLOYED", "BUILD_FAILED"] };

export { revisionIds, revisionStatus, revisionSource, computeType, listenerId, scopes, cpu, version, withType };
export { ok, scaleOnly, withName, withSource, withSha, externalDocker, secretWithoutValue, listenerPatch, query, badLimit, badStatus, revisionQuery };
