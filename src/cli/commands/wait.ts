// dms wait <deployment-id> <revision-id>: wait for a revision to end, as deploy does after its patch.
import { finish, followRevision, setOutputs } from "../follow.js";
import type { Io } from "../output.js";
import { startRevisionRun } from "../revision-run.js";
import { WAIT } from "../specs.js";
import { parseCommand, parseUuid } from "../usage.js";

export async function run(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommand(args, WAIT);
  const deploymentId = parseUuid("deployment-id", positionals[0]!);
  const revisionId = parseUuid("revision-id", positionals[1]!);
  const { run, client, interrupt, wait } = startRevisionRun("wait", deploymentId, values, io);
  setOutputs(run, { revision_id: revisionId });
  try {
    return finish(run, await followRevision(run, client, revisionId, wait));
  } finally {
    interrupt.dispose();
  }
}
