// dms deploy <deployment-id>: patch with exactly the fields given, then wait for the revision this
// patch created (its latest_revision_id), never "the newest in the list".
import { DEFAULT_WAIT } from "../../client/wait-for-revision.js";
import { unwrap } from "../../client/errors.js";
import { clientFor, CONNECTION_OPTIONS, readConnection } from "../connection.js";
import { buildDeployPatch, createsRevision, DEPLOY_PATCH_OPTIONS, readSecrets } from "../deploy-patch.js";
import { EXIT } from "../exit-codes.js";
import { elapsedMs, failedOutcome, finish, followRevision, type RevisionRun } from "../follow.js";
import { watchInterrupt } from "../interrupt.js";
import { Output, type Io } from "../output.js";
import { parseCommandLine, parseDuration, UsageError } from "../usage.js";
import { waitFlags } from "./wait.js";

const OPTIONS = {
  ...CONNECTION_OPTIONS,
  ...DEPLOY_PATCH_OPTIONS,
  "no-wait": { type: "boolean" },
  timeout: { type: "string" },
  interval: { type: "string" },
  json: { type: "boolean" },
} as const;

export async function run(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommandLine(args, OPTIONS, ["deployment-id"]);
  const deploymentId = positionals[0]!;
  // Secrets are hidden from every output before anything else can print them.
  const secrets = readSecrets(values, io.env);
  for (const secret of secrets) io.redactor.add(secret.value);
  const patch = buildDeployPatch(values, secrets);
  if (!createsRevision(patch)) {
    throw new UsageError(
      "nothing to deploy: give --ref, --graph-config-path, --image-uri, --source-tarball-path, --revision-source, " +
        "--secret or --secret-from-env (a patch without them creates no revision)",
    );
  }
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
  const client = clientFor(connection);
  const interrupt = watchInterrupt();
  try {
    const params = { path: { deployment_id: deploymentId } };
    let revisionId: string | null = null;
    try {
      // Read first, so a patch that created no revision is told apart from one that did.
      const before = unwrap(await client.GET("/v2/deployments/{deployment_id}", { params, signal: interrupt.signal }));
      // The patch is not given the signal: once sent, it is allowed to finish so that the revision
      // it created can be reported, and resumed with `dms wait`.
      const after = unwrap(await client.PATCH("/v2/deployments/{deployment_id}", { params, body: patch }));
      if (after.latest_revision_id === null || after.latest_revision_id === before.latest_revision_id) {
        const summary = `the patch of deployment ${deploymentId} created no revision (latest_revision_id is still ${after.latest_revision_id})`;
        return finish(run, { revisionId: null, status: null, exitCode: EXIT.noRevision, error: { summary, details: [], json: { kind: "no_revision" } } });
      }
      revisionId = after.latest_revision_id;
      reportCreated(run, revisionId);
      if (values["no-wait"]) return finish(run, { revisionId, status: null, exitCode: EXIT.ok });
      interrupt.signal.throwIfAborted();
    } catch (error) {
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
