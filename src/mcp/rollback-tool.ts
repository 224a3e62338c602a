// rollback: deploy again what an earlier revision ran (the client's planRollback: the target and
// the patch that pins its source), then wait for the new revision like deploy does. The service has no rollback
// endpoint: a rollback is a PATCH that creates a new revision, so it is neither free nor idempotent.
import { patchForRevision } from "../client/deploy-revision.js";
import { type ChangePlan, planRollback } from "../client/plan.js";
import { NoRollbackTargetError } from "../client/rollback.js";
import { inputSchema, parameterArgument, readArguments } from "./arguments.js";
import { declinedResult, errorResult, planResult } from "./results.js";
import { afterPatch, changeSchema, DEFAULT_TIMEOUT_SECONDS, dryRunArgument, outcomeResult, waitArguments } from "./revision-tools.js";
import { type ToolDefinition, writeHints } from "./tool.js";

const args = {
  operationId: "getDeployment",
  parameters: ["deployment_id"],
  own: {
    revision_id: parameterArgument("getRevision", "revision_id", {
      description: "The earlier revision whose source to deploy again. Default: the newest DEPLOYED revision older than the active one.",
    }),
    dry_run: dryRunArgument,
    ...waitArguments,
  },
} as const;

export const rollback: ToolDefinition = {
  name: "rollback",
  title: "Roll back a deployment",
  description:
    "Rolls a deployment back: deploys again the source of an earlier revision (revision_id, or by default the newest DEPLOYED " +
    "revision older than the active one; a repository revision is pinned to the commit it was built from). It creates a new " +
    "revision and, by default, waits for it like deploy, reporting each state as progress. Answers the new revision " +
    "(isError unless DEPLOYED), the deployment, and target_revision_id. Use list_revisions to pick a target. Calling it twice " +
    "without revision_id goes back and forth between two revisions. dry_run: true answers the plan (with the target) and sends " +
    "nothing; the user may be asked to confirm first. A target revision whose fields the deployment's source no longer takes is refused " +
    "before anything is sent.",
  inputSchema: inputSchema(args),
  outputSchema: changeSchema({ target_revision_id: { type: "string" } }),
  annotations: writeHints({ destructive: true, idempotent: false }),
  async run(raw, context) {
    const read = readArguments(args, raw, "rollback");
    const deploymentId = read.path.deployment_id;
    const toRevisionId = read.own.revision_id;
    // The plan is the patch sent: the target found, its source pinned (the client's planRollback).
    let plan: ChangePlan;
    try {
      plan = await planRollback(context.client, deploymentId, { toRevisionId, signal: context.signal });
    } catch (error) {
      if (error instanceof NoRollbackTargetError) return errorResult(`rollback: ${error.message}. Nothing was changed.`);
      throw error;
    }
    if (read.own.dry_run === true) return planResult("rollback", plan);
    if (context.confirm && !(await context.confirm(plan))) return declinedResult("rollback", plan);
    const { deployment, revisionId } = await patchForRevision(context.client, deploymentId, plan.request.body, {
      signal: context.signal,
      abortPatch: false,
    });
    const target = { target_revision_id: plan.target_revision_id };
    if (read.own.wait === false) {
      return outcomeResult({ deploymentId, deployment, revision: await afterPatch(context, deploymentId, revisionId, false) }, false, target);
    }
    const timeout = read.own.timeout_seconds ?? DEFAULT_TIMEOUT_SECONDS;
    return outcomeResult({ ...(await afterPatch(context, deploymentId, revisionId, true, timeout)), deployment }, true, target);
  },
};
