// One handler per operationId of the document, plus the control API. Handlers read and change
// the store and call `commit` after a change, which writes the state file (when there is one)
// before the answer goes out.
import { isFailureStatus, FAILURE_STATUSES } from "./lifecycle.js";
import type { DeploymentRecord, RevisionRecord } from "./model.js";
import { problem, type ControlHandler, type OperationHandler, type Reply } from "./server.js";
import type { Store } from "./store.js";

const ok = (body: unknown): Reply => ({ status: 200, body });
const okText = (text: string | Buffer): Reply => ({ status: 200, text });

export function operationHandlers(store: Store, commit: () => void): Record<string, OperationHandler> {
  const findDeployment = (id: string, tenant: string | undefined, path: string): DeploymentRecord | Reply =>
    store.getDeployment(id, tenant) ?? problem(404, `There is no deployment ${id}.`, path);
  const isReply = (x: unknown): x is Reply => typeof (x as Reply).status === "number";

  return {
    listDeployments({ params, tenant }) {
      const { limit, offset, ...filter } = params;
      const key = JSON.stringify([tenant ?? null, params]);
      return okText(
        store.deploymentPageJson(key, () => {
          const page = store.listDeployments(tenant, filter, offset, limit);
          return `{"resources":[${page.items.map((r) => store.deploymentJson(r)).join(",")}],"offset":${page.offset}}`;
        }),
      );
    },
    getDeployment({ params, tenant, path }) {
      const d = findDeployment(params.deployment_id, tenant, path);
      return isReply(d) ? d : okText(store.deploymentJson(d));
    },
    patchDeployment({ params, tenant, path, body }) {
      const d = findDeployment(params.deployment_id, tenant, path);
      if (isReply(d)) return d;
      store.patchDeployment(d, body);
      commit();
      return okText(store.deploymentJson(d));
    },
    listRevisions({ params, tenant, path }) {
      const d = findDeployment(params.deployment_id, tenant, path);
      if (isReply(d)) return d;
      const page = store.listRevisions(d, { status: params.status, remote_reconciled: params.remote_reconciled }, params.offset, params.limit);
      return ok({ resources: page.items.map(listItem), offset: page.offset });
    },
    getRevision({ params, tenant, path }) {
      const d = findDeployment(params.deployment_id, tenant, path);
      if (isReply(d)) return d;
      const r = store.getRevision(d, params.revision_id);
      return r ? ok(r.revision) : problem(404, `Deployment ${d.deployment.id} has no revision ${params.revision_id}.`, path);
    },
    listListeners({ params }) {
      const page = store.listListeners(params.offset, params.limit);
      return ok({ resources: page.items, offset: page.offset });
    },
    patchListener({ params, path, body }) {
      const listener = store.getListener(params.listener_id);
      if (!listener) return problem(404, `There is no listener ${params.listener_id}.`, path);
      store.patchListener(listener, body);
      commit();
      return ok(listener);
    },
    listOAuthProviders() {
      return ok(store.providers());
    },
    getOAuthProvider({ params, path }) {
      const provider = store.providers().find((p) => p.provider_id === params.provider_id);
      return provider ? ok(provider) : problem(404, `There is no OAuth provider "${params.provider_id}".`, path);
    },
    listAgentConnections({ params, path }) {
      const data = store.connections(params.agent_id);
      return data ? ok({ data }) : problem(404, `There is no agent "${params.agent_id}".`, path);
    },
    listScmRepositories({ params, path }) {
      const repos = store.repositories("scm", params.integration_id);
      return repos ? ok(repos) : problem(404, `There is no source-code host integration ${params.integration_id}.`, path);
    },
    listForgeScmRepositories({ params, path }) {
      const repos = store.repositories("forge", params.integration_id);
      return repos ? ok(repos) : problem(404, `There is no forge integration ${params.integration_id}.`, path);
    },
  };
}

/** The revision list shows only these fields (the document's RevisionListItem). */
function listItem({ revision }: RevisionRecord) {
  return {
    id: revision.id,
    created_at: revision.created_at,
    updated_at: revision.updated_at,
    source_revision_config: revision.source_revision_config,
  };
}

export interface ControlContext {
  store: Store;
  commit: () => void;
  reset: () => void;
  stepSeconds: number;
  seedIds: Record<string, unknown>;
}

export function controlHandlers({ store, commit, reset, stepSeconds, seedIds }: ControlContext): Record<string, ControlHandler> {
  const notObject = (body: unknown) => !body || typeof body !== "object" || Array.isArray(body);
  const status = () => ({ now: new Date(store.now()).toISOString(), step_seconds: stepSeconds, seed_ids: seedIds });
  return {
    "GET ": () => ok(status()),
    "POST reset": () => {
      reset();
      commit();
      return ok(status());
    },
    "POST advance": (body, path) => {
      const seconds = notObject(body) ? undefined : body.seconds;
      if (typeof seconds !== "number" || !Number.isFinite(seconds) || seconds < 0) {
        return problem(422, "Send {\"seconds\": N} with N a number >= 0.", path, [{ pointer: "/seconds", detail: "must be a number >= 0" }]);
      }
      store.advanceClock(seconds);
      commit();
      return ok(status());
    },
    "POST fail-next": (body, path) => {
      const errors = [];
      if (notObject(body) || typeof body.deployment_id !== "string" || body.deployment_id === "") {
        errors.push({ pointer: "/deployment_id", detail: "must be the id of a deployment" });
      }
      if (notObject(body) || !isFailureStatus(body.status)) {
        errors.push({ pointer: "/status", detail: `must be one of ${FAILURE_STATUSES.join(", ")}` });
      }
      if (errors.length > 0) return problem(422, "Send {\"deployment_id\", \"status\"}; see errors.", path, errors);
      const record = store.getDeployment(body.deployment_id, undefined);
      if (!record) return problem(404, `There is no deployment ${body.deployment_id}.`, path);
      store.failNext(record, body.status);
      commit();
      return ok({ deployment_id: body.deployment_id, status: body.status });
    },
  };
}
