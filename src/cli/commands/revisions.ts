// dms revisions <deployment-id>: a deployment's revisions, newest first, optionally filtered by state.
import { REVISION_STATUSES } from "../../../generated/constants.js";
import { paginate } from "../../client/paginate.js";
import type { Revision } from "../../shared/types.js";
import { clientFor, readConnection } from "../connection.js";
import { listFailed, printList, take } from "../list.js";
import { Output, type Io } from "../output.js";
import { REVISIONS } from "../specs.js";
import { parseChoices, parseCommand, parseCount, parseUuid } from "../usage.js";

export async function run(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseCommand(args, REVISIONS);
  const deploymentId = parseUuid("deployment-id", positionals[0]!);
  const limit = parseCount("--limit", values.limit, 20);
  const status = values.status === undefined ? undefined : parseChoices("--status", values.status, REVISION_STATUSES, "a revision status");
  const connection = readConnection(values, io.env);
  io.redactor.addKey(connection.apiKey);
  const output = new Output(io, values.json === true);
  const client = clientFor(connection);

  let revisions: Revision[];
  try {
    const query = { limit: Math.min(limit, 100), ...(status ? { status } : {}) };
    const path = { deployment_id: deploymentId };
    revisions = await take(paginate(client, "/v2/deployments/{deployment_id}/revisions", { path, query }), limit);
  } catch (error) {
    return listFailed(io, output, "revisions", error, connection.baseUrl);
  }
  return printList(io, output, "revisions", revisions, ["ID", "STATUS", "CREATED", "REF OR IMAGE"], (r) => {
    const config = r.source_revision_config;
    return [r.id, r.status, r.created_at, config?.repo_ref ?? config?.image_uri ?? config?.source_tarball_path ?? "-"];
  });
}
