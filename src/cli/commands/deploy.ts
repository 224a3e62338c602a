// dms deploy <deployment-id>: patch with exactly the fields given, then wait for the revision this
// patch created (its latest_revision_id), never "the newest in the list". The patch and the "no
// revision created" rule are the client's (patchForRevision, the first half of deployRevision).
import { NoRevisionCreatedError } from "../../client/deploy-revision.js";
import { planDeploy } from "../../client/plan.js";
import { buildDeployPatch, createsRevision, readSecrets } from "../deploy-patch.js";
import { EXIT } from "../exit-codes.js";
import { createdOutcome, failedOutcome, finish, followRevision } from "../follow.js";
import type { Io } from "../output.js";
import { reportPlan } from "../plan-output.js";
import { patchAndReport, startRevisionRun } from "../revision-run.js";
import { DEPLOY } from "../specs.js";
import { parseCommand, parseUuid, UsageError } from "../usage.js";

export async function run(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommand(args, DEPLOY);
  const deploymentId = parseUuid("deployment-id", positionals[0]!);
  // Secrets are hidden from every output before anything else can print them.
  const secrets = readSecrets(values, io.env);
  for (const secret of secrets) io.redactor.addSecret(secret.value);
  const patch = buildDeployPatch(values, secrets);
  if (!createsRevision(patch)) {
    throw new UsageError(
      "nothing to deploy: give --ref, --graph-config-path, --image-uri, --source-tarball-path, --revision-source, " +
        "--secret or --secret-from-env (a patch without them creates no revision)",
    );
  }
  const { run, client, interrupt, wait } = startRevisionRun("deploy", deploymentId, values, io);
  try {
    let revisionId: string | null = null;
    try {
      // --dry-run: the plan (the client's, as the MCP tool's dry_run answers it), nothing sent.
      if (values["dry-run"]) return reportPlan(run, await planDeploy(client, deploymentId, patch, { signal: wait.signal }));
      revisionId = await patchAndReport(run, client, patch, wait.signal);
      if (values["no-wait"]) return finish(run, await createdOutcome(run, client, revisionId, wait.signal));
      wait.signal.throwIfAborted();
    } catch (error) {
      if (error instanceof NoRevisionCreatedError) {
        const summary = `the patch of deployment ${deploymentId} created no revision (latest_revision_id is still ${error.deployment.latest_revision_id})`;
        return finish(run, { revisionId: null, status: null, exitCode: EXIT.noRevision, error: { summary, details: [], json: { kind: "no_revision" } } });
      }
      return finish(run, failedOutcome(run, error, revisionId, null));
    }
    return finish(run, await followRevision(run, client, revisionId, wait));
  } finally {
    interrupt.dispose();
  }
}
