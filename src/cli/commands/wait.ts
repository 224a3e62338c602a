// dms wait <deployment-id> <revision-id>: wait for a revision to end, as deploy does after its patch.
import { DEFAULT_WAIT } from "../../client/wait-for-revision.js";
import { clientFor, readConnection } from "../connection.js";
import { finish, followRevision, type RevisionRun, setOutputs } from "../follow.js";
import { watchInterrupt } from "../interrupt.js";
import { Output, type Io } from "../output.js";
import { WAIT } from "../specs.js";
import { parseCommand, parseDuration, parseUuid } from "../usage.js";

/** The flags of a command line that a resuming `dms wait` repeats; the API key stays in the environment. */
export function waitFlags(values: {
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

export async function run(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommand(args, WAIT);
  const deploymentId = parseUuid("deployment-id", positionals[0]!);
  const revisionId = parseUuid("revision-id", positionals[1]!);
  const timeoutMs = parseDuration("--timeout", values.timeout, DEFAULT_WAIT.timeoutMs);
  const intervalMs = parseDuration("--interval", values.interval, DEFAULT_WAIT.intervalMs);
  const connection = readConnection(values, io.env);
  io.redactor.add(connection.apiKey);

  const run: RevisionRun = {
    io,
    output: new Output(io, values.json === true),
    command: "wait",
    baseUrl: connection.baseUrl,
    deploymentId,
    startedAt: performance.now(),
    resumeFlags: waitFlags(values),
  };
  setOutputs(run, { deployment_id: deploymentId, revision_id: revisionId });
  const interrupt = watchInterrupt();
  try {
    return finish(run, await followRevision(run, clientFor(connection), revisionId, { timeoutMs, intervalMs, signal: interrupt.signal }));
  } finally {
    interrupt.dispose();
  }
}
