// rollbackDeployment: deploy again what an earlier revision ran. The service has no rollback
// endpoint, so a rollback is an ordinary PATCH whose source_revision_config pins that revision's
// source (the commit it was built from, not the branch, which may have moved on), then a wait.
import { jsonExcerpt } from "./problem-details.js";
import type { DeploymentsClient } from "./client.js";
import { checkDeploymentFields, type DeployedRevision, patchForRevision } from "./deploy-revision.js";
import { isUuid } from "../shared/uuid.js";
import { invalidResponseBody, unwrap } from "./errors.js";
import { terminalSafe } from "../shared/terminal-text.js";
import { paginate } from "./paginate.js";
import type { Deployment, DeploymentPatch, Revision, RevisionSource, SourceRevisionConfig } from "../shared/types.js";
import { checkWaitOptions, type WaitForRevisionOptions, waitForRevision } from "./wait-for-revision.js";

export interface RollbackOptions extends WaitForRevisionOptions {
  /**
   * The revision whose source to deploy again. Default: the newest DEPLOYED revision older than
   * the deployment's active one. An id the deployment does not have rejects with ApiError 404.
   */
  toRevisionId?: string | undefined;
}

export interface RolledBackRevision extends DeployedRevision {
  /** The earlier revision whose source was deployed again. */
  target: Revision;
}

/** No revision was given and the deployment has no DEPLOYED revision older than its active one (or no active one). */
export class NoRollbackTargetError extends Error {
  override readonly name = "NoRollbackTargetError";
  constructor(
    readonly deploymentId: string,
    readonly activeRevisionId: string | null,
  ) {
    super(
      terminalSafe(
        activeRevisionId === null
          ? `deployment ${deploymentId} has no active revision, so there is nothing to roll back from: name a revision to deploy`
          : `deployment ${deploymentId} has no DEPLOYED revision older than its active revision ${activeRevisionId}: nothing to roll back to`,
      ),
    );
  }
}

/** The fields of a revision's source_revision_config that a patch can send (all but the read-only repo_commit_sha). */
export const PATCHABLE_CONFIG_FIELDS = ["repo_ref", "graph_config_path", "image_uri", "source_tarball_path"] as const satisfies readonly Exclude<
  keyof SourceRevisionConfig,
  "repo_commit_sha"
>[];

/** A revision_source the patch may carry: external_docker is the deployment's own source or nothing. */
const PATCHABLE_SOURCES: ReadonlySet<string> = new Set<NonNullable<RevisionSource>>(["scm_host", "internal_docker", "internal_source"]);

/**
 * The patch that deploys what `target` ran. Every field of PATCHABLE_CONFIG_FIELDS the revision reported is sent (absent and
 * null ones are left out, so a field the source does not use is not sent as null); for a repository
 * the ref becomes the commit the revision was built from, when the service reported it, because a
 * branch may have moved since. The service's revision_source is set only when the revision was
 * built from a source other than the deployment's own. A target without a source_revision_config
 * object (which the document requires) is an ApiError titled "Invalid response body".
 */
export function rollbackPatch(deployment: Deployment, target: Revision): DeploymentPatch {
  const { repo_commit_sha: sha, ...reported } = checkedTarget(deployment, target).source_revision_config;
  const config: Omit<SourceRevisionConfig, "repo_commit_sha"> = {};
  // Only the fields a patch takes: the service rejects unknown ones, and a newer service may report more.
  for (const key of PATCHABLE_CONFIG_FIELDS) {
    const value = (reported as Record<string, unknown>)[key];
    if (typeof value === "string") config[key] = value;
  }
  if (target.source === "scm_host" && sha) config.repo_ref = sha;
  const patch: DeploymentPatch = { source_revision_config: config };
  if (target.source !== deployment.source && PATCHABLE_SOURCES.has(target.source)) {
    patch.revision_source = target.source as NonNullable<RevisionSource>;
  }
  return patch;
}

/**
 * The target of a rollback, as the document describes a revision where a rollback reads it: its
 * `source_revision_config` an object, and (`withId`, where it was read) its `id` a UUID. The
 * service's answer breaking the document there is an ApiError like any other body that is not what
 * the document promises, before anything is sent or printed (a path ending in "undefined", a
 * TypeError reading the config).
 */
function checkedTarget(deployment: Deployment, target: Revision, withId = false): Revision {
  const { id, source_revision_config: said } = (target ?? {}) as { id?: unknown; source_revision_config?: unknown };
  const problem =
    withId && !isUuid(id)
      ? `the revision's id ${jsonExcerpt(id, 60) ?? "(none)"} is not a UUID`
      : typeof said !== "object" || said === null || Array.isArray(said)
        ? `revision ${String(id)} has no source_revision_config object (${jsonExcerpt(said, 60) ?? "none"}), so there is nothing to deploy again`
        : undefined;
  if (problem === undefined) return target;
  const revision = `/v2/deployments/${deployment.id}/revisions/${isUuid(id) ? id : ""}`;
  throw invalidResponseBody({ method: "GET", url: revision }, target, `${problem}; nothing was sent`);
}

/**
 * The deployment and the revision a rollback would deploy again, read without changing anything:
 * the named one (ApiError 404 when the deployment has no such revision), or the newest DEPLOYED
 * revision older than the active one, found by paging through the revisions (newest first).
 * Throws NoRollbackTargetError when there is none.
 */
export async function findRollbackTarget(
  client: DeploymentsClient,
  deploymentId: string,
  options: { toRevisionId?: string | undefined; signal?: AbortSignal | undefined } = {},
): Promise<{ deployment: Deployment; target: Revision }> {
  const { toRevisionId, signal } = options;
  const read = await client.GET("/v2/deployments/{deployment_id}", { params: { path: { deployment_id: deploymentId } }, signal });
  const deployment = unwrap(read);
  // Without a target named, the active revision is read (and printed when there is nothing older).
  if (toRevisionId === undefined) checkDeploymentFields(deployment, ["active_revision_id"], read.response);
  if (toRevisionId !== undefined) {
    const target = unwrap(
      await client.GET("/v2/deployments/{deployment_id}/revisions/{revision_id}", {
        params: { path: { deployment_id: deploymentId, revision_id: toRevisionId } },
        signal,
      }),
    );
    return { deployment, target: checkedTarget(deployment, target, true) };
  }
  const active = deployment.active_revision_id;
  if (active === null) throw new NoRollbackTargetError(deploymentId, null);
  // The list is newest first: everything after the active revision is older than it. The walk
  // stops at the first match, so a long history costs only the pages up to it.
  let passedActive = false;
  for await (const revision of paginate(client, "/v2/deployments/{deployment_id}/revisions", { path: { deployment_id: deploymentId }, signal })) {
    // An item that is not a revision (null, a number: off the document) is the service's error, not a TypeError.
    if (typeof revision !== "object" || revision === null || Array.isArray(revision)) {
      throw invalidResponseBody(
        { method: "GET", url: `/v2/deployments/${deploymentId}/revisions` },
        revision,
        `the page of revisions has an item that is not a revision: ${jsonExcerpt(revision, 60) ?? "(none)"}; nothing was sent`,
      );
    }
    if (revision.id === active) passedActive = true;
    else if (passedActive && revision.status === "DEPLOYED") return { deployment, target: checkedTarget(deployment, revision, true) };
  }
  throw new NoRollbackTargetError(deploymentId, active);
}

/**
 * Deploys again the source of an earlier revision (`toRevisionId`, or the newest DEPLOYED one older
 * than the active revision) and waits for the revision this creates, as deployRevision does:
 * resolves with the deployment the PATCH returned, the new revision in its terminal state (check
 * `status`, or pass `throwOnFailure`) and the target. Nothing is patched when the target cannot be
 * read (ApiError), when there is none (NoRollbackTargetError) or when a wait option is bad (TypeError).
 * Calling it twice in a row without `toRevisionId` goes back and forth between two revisions, as
 * the first rollback makes the copy of the older one the active revision.
 */
export async function rollbackDeployment(client: DeploymentsClient, deploymentId: string, options: RollbackOptions = {}): Promise<RolledBackRevision> {
  checkWaitOptions(options, "rollbackDeployment");
  const { toRevisionId } = options;
  if (toRevisionId !== undefined && (typeof toRevisionId !== "string" || toRevisionId.trim() === "")) {
    throw new TypeError(
      `rollbackDeployment: toRevisionId must be a revision's id (a non-empty string), got ${JSON.stringify(toRevisionId) ?? String(toRevisionId)}`,
    );
  }
  const { deployment: before, target } = await findRollbackTarget(client, deploymentId, options);
  const patch = rollbackPatch(before, target);
  const { deployment, revisionId } = await patchForRevision(client, deploymentId, patch, { signal: options.signal });
  const revision = await waitForRevision(client, deploymentId, revisionId, options);
  return { deployment, revision, target };
}
