// dms deploy <deployment-id>: patch with exactly the fields given, then wait for the revision this
// patch created (its latest_revision_id), never "the newest in the list". The patch and the "no
// revision created" rule are the client's (patchForRevision, the first half of deployRevision).
import { NoRevisionCreatedError, patchForRevision } from "../../client/deploy-revision.js";
import { DEFAULT_WAIT } from "../../client/wait-for-revision.js";
import { clientFor, readConnection } from "../connection.js";
import { buildDeployPatch, createsRevision, readSecrets } from "../deploy-patch.js";
import { EXIT } from "../exit-codes.js";
import { elapsedMs, failedOutcome, finish, followRevision, type RevisionRun, setOutputs } from "../follow.js";
import { watchInterrupt } from "../interrupt.js";
import { type Io, Output } from "../output.js";
import { DEPLOY } from "../specs.js";
import { parseCommand, parseDuration, parseUuid, UsageError } from "../usage.js";
import { waitFlags } from "./wait.js";

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
  if (values.wait && values["no-wait"]) throw new UsageError("--wait and --no-wait together: waiting is the default, give --no-wait alone to skip it");
  const timeoutMs = parseDuration("--timeout", values.timeout, DEFAULT_WAIT.timeoutMs);
  const intervalMs = parseDuration("--interval", values.interval, DEFAULT_WAIT.intervalMs);
  const connection = readConnection(values, io.env);
  io.redactor.add(connection.apiKey);

  const output = new Output(io, values.json === true);
  const run: RevisionRun = {
    io,
    output,
    command: "deploy",
    baseUrl: connection.baseUrl,
    deploymentId,
    startedAt: performance.now(),
    resumeFlags: waitFlags(values),
  };
  setOutputs(run, { deployment_id: deploymentId });
  const client = clientFor(connection);
  const interrupt = watchInterrupt();
  try {
    let revisionId: string | null = null;
    try {
      // A sent PATCH is allowed to finish on a signal, so that the revision it created is reported.
      ({ revisionId } = await patchForRevision(client, deploymentId, patch, { signal: interrupt.signal, abortPatch: false }));
      setOutputs(run, { revision_id: revisionId });
      reportCreated(run, revisionId);
      if (values["no-wait"]) return finish(run, { revisionId, status: null, exitCode: EXIT.ok });
      interrupt.signal.throwIfAborted();
    } catch (error) {
      if (error instanceof NoRevisionCreatedError) {
        const summary = `the patch of deployment ${deploymentId} created no revision (latest_revision_id is still ${error.deployment.latest_revision_id})`;
        return finish(run, { revisionId: null, status: null, exitCode: EXIT.noRevision, error: { summary, details: [], json: { kind: "no_revision" } } });
      }
      return finish(run, failedOutcome(run, error, revisionId, null));
    }
    return finish(run, await followRevision(run, client, revisionId, { timeoutMs, intervalMs, signal: interrupt.signal }));
  } finally {
    interrupt.dispose();
  }
}

function reportCreated(run: RevisionRun, revisionId: string): void {
  const elapsed = elapsedMs(run);
  if (run.output.json) {
    run.output.event({ event: "revision_created", deployment_id: run.deploymentId, revision_id: revisionId, elapsed_ms: elapsed });
  } else {
    run.output.line(`deployment ${run.deploymentId}: revision ${revisionId} created`);
  }
}
