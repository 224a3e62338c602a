// What dms deploy, rollback and wait do alike around the one revision they follow: read the wait's
// timing and the connection (its key hidden from every output before anything prints), start the
// run and its GitHub outputs, watch for signals; and, for the two that patch, send the PATCH and
// report the revision it created.
import type { DeploymentsClient } from "../client/client.js";
import { patchForRevision } from "../client/deploy-revision.js";
import { DEFAULT_WAIT } from "../client/wait-for-revision.js";
import type { DeploymentPatch } from "../shared/types.js";
import { clientFor, type ConnectionFlags, readConnection } from "./connection.js";
import { elapsedMs, type RevisionRun, setOutputs } from "./follow.js";
import { type InterruptWatch, watchInterrupt } from "./interrupt.js";
import { type Io, Output } from "./output.js";
import { parseDuration, UsageError } from "./usage.js";

/** The flags of a command line that a resuming `dms wait` repeats; the API key stays in the environment. */
function waitFlags(values: {
  "base-url"?: string | undefined;
  "tenant-id"?: string | undefined;
  "request-timeout"?: string | undefined;
  timeout?: string | undefined;
  interval?: string | undefined;
  json?: boolean | undefined;
}): string[] {
  const flags: string[] = [];
  for (const name of ["base-url", "tenant-id", "request-timeout", "timeout", "interval"] as const) {
    const value = values[name];
    if (value !== undefined) flags.push(`--${name}`, value);
  }
  if (values.json) flags.push("--json");
  return flags;
}

type RunFlags = ConnectionFlags &
  Parameters<typeof waitFlags>[0] & {
    wait?: boolean | undefined;
    "no-wait"?: boolean | undefined;
  };

export interface StartedRun {
  run: RevisionRun;
  client: DeploymentsClient;
  interrupt: InterruptWatch;
  /** waitForRevision's timing and the interrupt's signal, as followRevision takes them. */
  wait: { timeoutMs: number; intervalMs: number; signal: AbortSignal };
}

/**
 * Checks the waiting flags and the connection (usage errors, nothing sent), then starts the run:
 * the deployment_id output is written and signals are watched from here on. The caller disposes
 * of `interrupt` when it ends.
 */
export function startRevisionRun(command: RevisionRun["command"], deploymentId: string, values: RunFlags, io: Io): StartedRun {
  if (values.wait && values["no-wait"]) throw new UsageError("--wait and --no-wait together: waiting is the default, give --no-wait alone to skip it");
  const timeoutMs = parseDuration("--timeout", values.timeout, DEFAULT_WAIT.timeoutMs);
  const intervalMs = parseDuration("--interval", values.interval, DEFAULT_WAIT.intervalMs);
  const connection = readConnection(values, io.env);
  io.redactor.addKey(connection.apiKey);
  const run: RevisionRun = {
    io,
    output: new Output(io, values.json === true),
    command,
    baseUrl: connection.baseUrl,
    deploymentId,
    startedAt: performance.now(),
    resumeFlags: waitFlags(values),
  };
  setOutputs(run, { deployment_id: deploymentId });
  const client = clientFor(connection);
  const interrupt = watchInterrupt();
  return { run, client, interrupt, wait: { timeoutMs, intervalMs, signal: interrupt.signal } };
}

/**
 * Sends the patch and reports the revision it created (the revision_id output, then a line or a
 * revision_created event). A sent PATCH may finish on a signal, so that its revision is reported;
 * NoRevisionCreatedError when the patch created none.
 */
export async function patchAndReport(run: RevisionRun, client: DeploymentsClient, patch: DeploymentPatch, signal: AbortSignal): Promise<string> {
  const { revisionId } = await patchForRevision(client, run.deploymentId, patch, { signal, abortPatch: false });
  setOutputs(run, { revision_id: revisionId });
  if (run.output.json) {
    run.output.event({ event: "revision_created", deployment_id: run.deploymentId, revision_id: revisionId, elapsed_ms: elapsedMs(run) });
  } else {
    run.output.line(`deployment ${run.deploymentId}: revision ${revisionId} created`);
  }
  return revisionId;
}
