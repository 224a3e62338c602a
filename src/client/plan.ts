// A plan before a change: what a deploy or a rollback would send, read without changing anything.
// The service has no dry run, so a plan is made from reads (the deployment; for a rollback, the
// revision to go back to): the PATCH that would be sent, the revision it would replace, and the
// source the new revision would run. `dms deploy --dry-run`, `dms rollback --dry-run` and the MCP
// tools' `dry_run` all answer planChange's plan, and the MCP tools send the very patch they planned.
import type { DeploymentsClient } from "./client.js";
import { checkDeploymentFields, checkPatchFitsSource } from "./deploy-revision.js";
import { unwrap } from "./errors.js";
import { findRollbackTarget, rollbackPatch } from "./rollback.js";
import type { Deployment, DeploymentPatch, Revision, RevisionSource, SourceRevisionConfig } from "../shared/types.js";

export interface ChangePlan {
  /** What the change is. */
  action: "deploy" | "rollback";
  deployment_id: string;
  /** The request that would be sent, as it would be sent (secret values included: mask them before showing it). */
  request: { method: "PATCH"; path: string; body: DeploymentPatch };
  /**
   * The revision the change would replace: the deployment's active revision (what serves now), which
   * the new revision replaces once it is DEPLOYED; and its latest one, which ends INTERRUPTED if it
   * is still in progress when the new one is created.
   */
  replaces: { active_revision_id: string | null; latest_revision_id: string | null };
  /**
   * The source the new revision would run: the deployment's revision config with the patch's
   * fields over it (a field the patch leaves out keeps its value; the commit of a ref is the
   * service's to find), and the revision source.
   */
  source: { revision_source: RevisionSource | Deployment["source"]; source_revision_config: Omit<SourceRevisionConfig, "repo_commit_sha"> };
  /** A rollback's target: the earlier revision whose source it deploys again. */
  target_revision_id?: string;
  /** Always false: a plan sends nothing. */
  sent: false;
}

/** The fields of the deployment a plan reads besides its source. */
const PLANNED_FIELDS = ["source_revision_config", "active_revision_id", "latest_revision_id"] as const;

/** The plan of sending `patch` to `deployment` as read now (and, for a rollback, the target it came from). */
export function planChange(action: ChangePlan["action"], deployment: Deployment, patch: DeploymentPatch, target?: Revision): ChangePlan {
  const { repo_commit_sha: _commitOfLatest, ...current } = deployment.source_revision_config;
  return {
    action,
    deployment_id: deployment.id,
    request: { method: "PATCH", path: `/v2/deployments/${deployment.id}`, body: patch },
    replaces: { active_revision_id: deployment.active_revision_id, latest_revision_id: deployment.latest_revision_id },
    source: {
      revision_source: patch.revision_source ?? deployment.source,
      source_revision_config: { ...current, ...(patch.source_revision_config ?? {}) },
    },
    ...(target ? { target_revision_id: target.id } : {}),
    sent: false,
  };
}

/** What `deployRevision(client, deploymentId, patch)` would send, with one GET of the deployment. */
export async function planDeploy(
  client: DeploymentsClient,
  deploymentId: string,
  patch: DeploymentPatch,
  options: { signal?: AbortSignal | undefined } = {},
): Promise<ChangePlan> {
  const result = await client.GET("/v2/deployments/{deployment_id}", { params: { path: { deployment_id: deploymentId } }, signal: options.signal });
  const deployment = unwrap(result);
  // A patch the service would refuse has no plan: the same SourceMismatchError as the deploy.
  checkPatchFitsSource(deployment, patch);
  // What the plan reads of it, checked: off the document, the service's error.
  checkDeploymentFields(deployment, PLANNED_FIELDS, result.response);
  return planChange("deploy", deployment, patch);
}

/**
 * What `rollbackDeployment(client, deploymentId, { toRevisionId })` would send: the target found as
 * it finds it (NoRollbackTargetError when there is none, ApiError 404 for an unknown revision).
 */
export async function planRollback(
  client: DeploymentsClient,
  deploymentId: string,
  options: { toRevisionId?: string | undefined; signal?: AbortSignal | undefined } = {},
): Promise<ChangePlan> {
  const { deployment, target } = await findRollbackTarget(client, deploymentId, options);
  const patch = rollbackPatch(deployment, target);
  checkPatchFitsSource(deployment, patch);
  checkDeploymentFields(deployment, PLANNED_FIELDS);
  return planChange("rollback", deployment, patch, target);
}

/** `repo_ref=main image_uri=…`: a revision config on one line. */
function configLine(config: Record<string, unknown>): string {
  const fields = Object.entries(config).filter(([, value]) => value !== undefined && value !== null);
  return fields.length === 0 ? "(no fields)" : fields.map(([name, value]) => `${name}=${String(value)}`).join(" ");
}

/**
 * A plan for people, a line each: what would be sent, what it would replace, what would run. The
 * words of `dms deploy --dry-run` and of the MCP tools' dry runs and confirmations. Mask the plan's
 * secret values first.
 */
export function planLines(plan: ChangePlan): string[] {
  const { replaces } = plan;
  const active = replaces.active_revision_id === null ? "no active revision" : `active revision ${replaces.active_revision_id}`;
  const latest =
    replaces.latest_revision_id !== null && replaces.latest_revision_id !== replaces.active_revision_id
      ? `; latest revision ${replaces.latest_revision_id} ends INTERRUPTED if still in progress`
      : "";
  return [
    ...(plan.target_revision_id ? [`going back to: revision ${plan.target_revision_id}`] : []),
    `would send:    ${plan.request.method} ${plan.request.path} ${JSON.stringify(plan.request.body)}`,
    `would replace: ${active} (once the new revision is DEPLOYED)${latest}`,
    `would run:     ${plan.source.revision_source} ${configLine(plan.source.source_revision_config)}`,
  ];
}
