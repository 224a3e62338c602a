// dms deployments: the deployments, newest first, optionally filtered by name and state.
import { DEPLOYMENT_STATUSES } from "../../../generated/constants.js";
import { paginate } from "../../client/paginate.js";
import type { Deployment, DeploymentStatus } from "../../shared/types.js";
import { clientFor, readConnection } from "../connection.js";
import { listFailed, printList, take } from "../list.js";
import { Output, type Io } from "../output.js";
import { DEPLOYMENTS } from "../specs.js";
import { nonEmpty, parseChoices, parseCommand, parseCount, UsageError } from "../usage.js";

export async function run(args: string[], io: Io): Promise<number> {
  const { values } = parseCommand(args, DEPLOYMENTS);
  const limit = parseCount("--limit", values.limit, 20);
  const nameContains = nonEmpty("--name-contains", values["name-contains"]);
  let status: DeploymentStatus | undefined;
  if (values.status !== undefined) {
    if (values.status.includes(",")) throw new UsageError(`--status takes one state: ${DEPLOYMENT_STATUSES.join(", ")}`);
    status = parseChoices("--status", values.status, DEPLOYMENT_STATUSES, "a deployment status")[0];
  }
  const connection = readConnection(values, io.env);
  io.redactor.addKey(connection.apiKey);
  const output = new Output(io, values.json === true);

  const query = {
    limit: Math.min(limit, 100),
    ...(nameContains !== undefined ? { name_contains: nameContains } : {}),
    ...(status !== undefined ? { status } : {}),
  };
  const client = clientFor(connection);
  let deployments: Deployment[];
  try {
    deployments = await take(paginate(client, "/v2/deployments", { query }), limit);
  } catch (error) {
    return listFailed(io, output, "deployments", error, connection.baseUrl);
  }
  return printList(io, output, "deployments", deployments, ["ID", "NAME", "STATUS", "SOURCE", "LATEST REVISION"], (d) => [
    d.id ?? "",
    d.name ?? "",
    d.status ?? "",
    d.source ?? "",
    d.latest_revision_id ?? "-",
  ]);
}
