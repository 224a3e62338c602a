// One answer per operationId of the document, typed from the generated `operations`: each takes
// its operation's parameters and body, and the compiler says when an operation has none. Reads go
// to the store and come back as data or cached JSON text; writes go through the writer, which
// saves them before they are applied.
import type { operations } from "../../../generated/schema.js";
import type { DeploymentRecord } from "./model.js";
import type { JsonCache } from "./json-cache.js";
import { ok, okText, problem, type Reply } from "./reply.js";
import type { Store } from "./store/index.js";
import { sourceViolations } from "../../shared/source-rules.js";
import { invalidFieldsDetail } from "../../shared/problems.js";
import type { Writer } from "./writer.js";

export type OperationId = keyof operations;

type Section<P, S extends "path" | "query"> = P extends { [k in S]?: infer X } ? ([NonNullable<X>] extends [never] ? unknown : NonNullable<X>) : unknown;
/** A paged list's limit and offset are always there once checked: the document gives their defaults. */
type Paged<Q> = "limit" extends keyof Q ? Omit<Q, "limit" | "offset"> & { limit: number; offset: number } : Q;
/** An operation's path and query parameters, coerced, checked and defaulted. */
export type OperationParams<K extends OperationId> = Section<operations[K]["parameters"], "path"> & Paged<Section<operations[K]["parameters"], "query">>;
/** An operation's checked JSON body (undefined for an operation without one). */
export type OperationBody<K extends OperationId> = operations[K] extends { requestBody: { content: { "application/json": infer B } } } ? B : undefined;

export interface OperationRequest<K extends OperationId> {
  params: OperationParams<K>;
  body: OperationBody<K>;
  /** X-Tenant-Id (lower case), when sent: only that tenant's resources are visible. */
  tenant: string | undefined;
  path: string;
}

export type OperationAnswer<K extends OperationId> = (request: OperationRequest<K>) => Reply | Promise<Reply>;

/** A checked request of an operation named at run time (the router's view, before its operation is known to the compiler). */
export interface CheckedRequest {
  params: Record<string, unknown>;
  body: unknown;
  tenant: string | undefined;
  path: string;
}

/** An operation's answer as the router calls it, by operationId. */
export type RoutedAnswer = (request: CheckedRequest) => Reply | Promise<Reply>;

/** Every operation's answer; the router calls them with what the checker let through for that operation. */
export function operationAnswers(store: Store, writer: Writer, render: JsonCache): Record<OperationId, RoutedAnswer> {
  const answers = typedAnswers(store, writer, render);
  // The one place where an operation named by a string meets its typed answer: the checker has
  // validated the request against that operation's schemas.
  return answers as unknown as Record<OperationId, RoutedAnswer>;
}

function typedAnswers(store: Store, writer: Writer, render: JsonCache) {
  const findDeployment = (id: string, tenant: string | undefined, path: string): DeploymentRecord | Reply =>
    store.getDeployment(id, tenant) ?? problem("not-found", `There is no deployment ${id}.`, path);
  const isRecord = (x: DeploymentRecord | Reply): x is DeploymentRecord => "deployment" in x;

  return {
    listDeployments({ params, tenant }) {
      const { limit, offset, ...filter } = params;
      const key = JSON.stringify([tenant ?? null, params]);
      return okText(
        render.deploymentPageJson(key, () => {
          const page = store.listDeployments(tenant, filter, offset, limit);
          return `{"resources":[${page.items.map((r) => render.deploymentJson(r)).join(",")}],"offset":${page.offset}}`;
        }),
      );
    },
    getDeployment({ params, tenant, path }) {
      const d = findDeployment(params.deployment_id, tenant, path);
      return isRecord(d) ? okText(render.deploymentJson(d)) : d;
    },
    patchDeployment({ params, tenant, path, body }) {
      return writer.write(
        params.deployment_id,
        path,
        () => {
          const d = findDeployment(params.deployment_id, tenant, path);
          if (!isRecord(d)) return d;
          // A patch the deployment's source does not take is refused whole: nothing is planned.
          return sourceRefusal(d.deployment.source, body, path) ?? store.planDeploymentPatch(d, body);
        },
        (record) => okText(render.deploymentJson(record)),
      );
    },
    listRevisions({ params, tenant, path }) {
      const d = findDeployment(params.deployment_id, tenant, path);
      if (!isRecord(d)) return d;
      const page = store.listRevisions(d, { status: params.status, remote_reconciled: params.remote_reconciled }, params.offset, params.limit);
      return ok({ resources: page.items.map((r) => r.revision), offset: page.offset });
    },
    getRevision({ params, tenant, path }) {
      const d = findDeployment(params.deployment_id, tenant, path);
      if (!isRecord(d)) return d;
      const r = store.getRevision(d, params.revision_id);
      return r ? ok(r.revision) : problem("not-found", `Deployment ${d.deployment.id} has no revision ${params.revision_id}.`, path);
    },
    listListeners({ params }) {
      const page = store.listListeners(params.offset, params.limit);
      return ok({ resources: page.items, offset: page.offset });
    },
    patchListener({ params, path, body }) {
      return writer.write(
        `listener:${params.listener_id}`,
        path,
        () => {
          const listener = store.getListener(params.listener_id);
          return listener ? store.planListenerPatch(listener, body) : problem("not-found", `There is no listener ${params.listener_id}.`, path);
        },
        ok,
      );
    },
    listOAuthProviders() {
      return ok(store.providers());
    },
    getOAuthProvider({ params, path }) {
      const provider = store.providers().find((p) => p.provider_id === params.provider_id);
      return provider ? ok(provider) : problem("not-found", `There is no OAuth provider "${params.provider_id}".`, path);
    },
    listAgentConnections({ params, path }) {
      const data = store.connections(params.agent_id);
      return data ? ok({ data }) : problem("not-found", `There is no agent "${params.agent_id}".`, path);
    },
    listScmRepositories({ params, path }) {
      const repos = store.repositories("scm", params.integration_id);
      return repos ? ok(repos) : problem("not-found", `There is no source-code host integration ${params.integration_id}.`, path);
    },
    listForgeScmRepositories({ params, path }) {
      const repos = store.repositories("forge", params.integration_id);
      return repos ? ok(repos) : problem("not-found", `There is no forge integration ${params.integration_id}.`, path);
    },
  } satisfies { [K in OperationId]: OperationAnswer<K> };
}

/**
 * The answer to a patch that breaks the source table (src/shared/source-rules.ts), or undefined
 * when it fits: a revision_source of another source as the service answers it (400, its detail),
 * else 422 naming each field that does not apply.
 */
function sourceRefusal(source: DeploymentRecord["deployment"]["source"], body: OperationBody<"patchDeployment">, path: string): Reply | undefined {
  const { revisionSource, fields } = sourceViolations(source, body);
  if (revisionSource) return problem("bad-request", revisionSource.detail, path);
  if (fields.length === 0) return undefined;
  return problem(
    "validation",
    invalidFieldsDetail(fields.length),
    path,
    fields.map((f) => ({ pointer: f.pointer, code: "not_for_source", detail: f.detail })),
  );
}
