// dms rollback <deployment-id> [--to <revision-id|active|previous>]: deploy again what an earlier revision
// ran, then wait as deploy does. Which revision and which patch are the client's
// (findRollbackTarget, rollbackPatch); the PATCH and the wait are deploy's.
import { checkDeploymentFields, NoRevisionCreatedError } from "../../client/deploy-revision.js";
import { unwrap } from "../../client/errors.js";
import { planRollback } from "../../client/plan.js";
import { findRollbackTarget, NoRollbackTargetError, rollbackPatch } from "../../client/rollback.js";
import type { Revision } from "../../shared/types.js";
import { EXIT } from "../exit-codes.js";
import { createdOutcome, elapsedMs, failedOutcome, finish, followRevision, type RevisionRun } from "../follow.js";
import type { Io } from "../output.js";
import { reportPlan } from "../plan-output.js";
import { patchAndReport, startRevisionRun } from "../revision-run.js";
import { ROLLBACK } from "../specs.js";
import { terminalSafe } from "../terminal-text.js";
import { parseCommand, parseUuid, shownValue, UsageError } from "../usage.js";

/**
 * --to: a revision id, "active" (any case) for the revision that runs now, or "previous" (any case)
 * for the default, the newest DEPLOYED revision older than the active one: the three values the
 * Action's rollback-to input takes, so a step and a script say the same.
 */
function parseTo(raw: string | undefined): string | undefined {
  if (raw === undefined || raw.toLowerCase() === "previous") return undefined;
  if (raw.toLowerCase() === "active") return "active";
  try {
    return parseUuid("to", raw);
  } catch {
    throw new UsageError(`--to "${shownValue(raw)}" is neither a revision's UUID, active nor previous`);
  }
}

/**
 * What the target ran, in one line: the commit, image or archive the rollback deploys again. A
 * repository revision without a reported commit is deployed by its ref as that ref is now, which
 * may not be what the revision ran: the line says so.
 */
export function describeSource(target: Revision): string {
  const c = target.source_revision_config;
  if (target.source === "scm_host") {
    if (c.repo_commit_sha) return `commit ${c.repo_commit_sha}${c.repo_ref && c.repo_ref !== c.repo_commit_sha ? ` (${c.repo_ref})` : ""}`;
    if (c.repo_ref) return `ref ${c.repo_ref} (the revision reported no commit: the ref is built as it is now, which may differ from what it ran)`;
    return "the deployment's repository (the revision reported no commit and no ref)";
  }
  if (c.image_uri) return `image ${c.image_uri}`;
  if (c.source_tarball_path) return `archive ${c.source_tarball_path}`;
  return `source ${target.source}`;
}

export async function run(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommand(args, ROLLBACK);
  const deploymentId = parseUuid("deployment-id", positionals[0]!);
  const to = parseTo(values.to);
  const { run, client, interrupt, wait } = startRevisionRun("rollback", deploymentId, values, io);
  const signal = wait.signal;
  try {
    let revisionId: string | null = null;
    try {
      let toRevisionId = to;
      if (to === "active") {
        const read = await client.GET("/v2/deployments/{deployment_id}", { params: { path: { deployment_id: deploymentId } }, signal });
        const deployment = unwrap(read);
        // Its active revision is read here: off the document, the service's error (exit 6), not a path.
        checkDeploymentFields(deployment, ["active_revision_id"], read.response);
        if (deployment.active_revision_id === null) throw new NoRollbackTargetError(deploymentId, null);
        toRevisionId = deployment.active_revision_id;
      }
      // --dry-run: the plan (the client's, as the MCP tool's dry_run answers it), nothing sent.
      if (values["dry-run"]) return reportPlan(run, await planRollback(client, deploymentId, { toRevisionId, signal }));
      const { deployment, target } = await findRollbackTarget(client, deploymentId, { toRevisionId, signal });
      reportTarget(run, target);
      revisionId = await patchAndReport(run, client, rollbackPatch(deployment, target), signal);
      if (values["no-wait"]) return finish(run, await createdOutcome(run, client, revisionId, wait.signal));
      signal.throwIfAborted();
    } catch (error) {
      if (error instanceof NoRollbackTargetError) {
        return finish(run, {
          revisionId: null,
          status: null,
          exitCode: EXIT.noRollbackTarget,
          error: { summary: error.message, details: [], json: { kind: "no_rollback_target", active_revision_id: error.activeRevisionId } },
        });
      }
      if (error instanceof NoRevisionCreatedError) {
        const summary = `the rollback patch of deployment ${deploymentId} created no revision (latest_revision_id is still ${error.deployment.latest_revision_id})`;
        return finish(run, { revisionId: null, status: null, exitCode: EXIT.noRevision, error: { summary, details: [], json: { kind: "no_revision" } } });
      }
      return finish(run, failedOutcome(run, error, revisionId, null));
    }
    return finish(run, await followRevision(run, client, revisionId, wait));
  } finally {
    interrupt.dispose();
  }
}

function reportTarget(run: RevisionRun, target: Revision): void {
  if (run.output.json) {
    run.output.event({
      event: "rollback_target",
      deployment_id: run.deploymentId,
      target_revision_id: target.id,
      target_status: target.status,
      source_revision_config: run.io.redactor.data(target.source_revision_config),
      elapsed_ms: elapsedMs(run),
    });
  } else {
    run.output.line(`deployment ${run.deploymentId}: rolling back to revision ${target.id} (${target.status}), ${terminalSafe(describeSource(target))}`);
  }
}
