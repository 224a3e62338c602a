// The tools that follow revisions: deploy (patch, then wait for the revision the patch created) and
// wait_for_revision. While they wait they report each state the revision enters as a progress
// notification, and stop when the call is cancelled. A revision that ends in a failure state is an
// answer, not a protocol error: the result carries the revision and says which state it ended in,
// with isError set so that an agent does not take a failed deploy for a done one.
import { sourceRuleLines } from "../shared/source-rules.js";
import { patchForRevision } from "../client/deploy-revision.js";
import { invalidResponseBody, unwrap } from "../client/errors.js";
import { jsonExcerpt } from "../client/problem-details.js";
import { isUuid } from "../shared/uuid.js";
import { planDeploy } from "../client/plan.js";
import { isTerminalRevisionStatus, RevisionWaitTimeoutError, waitForRevision } from "../client/wait-for-revision.js";
import { createsRevision, REVISION_FIELDS } from "../shared/revision-rules.js";
import type { Deployment, Revision } from "../shared/types.js";
import { ArgumentError, booleanArgument, inputSchema, isPlainObject, readArguments, secondsArgument } from "./arguments.js";
import { componentSchema, type JsonSchema } from "./json-schema.js";
import { CreatedRevisionUnreadError, dataResult, declinedResult, planResult, type ToolResult } from "./results.js";
import { READ_HINTS, type ToolContext, type ToolDefinition, writeHints } from "./tool.js";

const OUT = { descriptions: false } as const;

/**
 * What deploy, rollback and wait_for_revision answer: the revision in the state it ended (or was
 * last seen) in; deploy and rollback add the deployment as the PATCH answered it, described as one
 * object (get_deployment's schema has its fields) to keep tools/list small.
 */
export function outcomeSchema(withDeployment: boolean): JsonSchema {
  return {
    type: "object",
    properties: {
      deployment_id: { type: "string" },
      revision_id: { type: "string" },
      status: { type: "string" },
      ended: { type: "boolean" },
      revision: componentSchema("Revision", OUT),
      ...(withDeployment ? { deployment: { type: "object" } } : {}),
    },
    required: ["deployment_id", "revision_id", "status", "ended", "revision"],
  };
}

export const DEFAULT_TIMEOUT_SECONDS = 600;
const MAX_TIMEOUT_SECONDS = 3600;

export const waitArguments = {
  wait: booleanArgument("Wait for the revision to end (default true), reporting each state as progress; false answers once the revision exists.", true),
  timeout_seconds: secondsArgument(
    "How long to wait for the revision to end (default 600). When it passes, the answer is the revision as last seen; call wait_for_revision to go on waiting.",
    DEFAULT_TIMEOUT_SECONDS,
    1,
    MAX_TIMEOUT_SECONDS,
  ),
};

export interface Outcome {
  deploymentId: string;
  revision: Revision;
  deployment?: Deployment;
  /** Set when the wait stopped before the revision ended. */
  timedOutAfterSeconds?: number;
}

/** The result for a revision: data, plus a sentence saying how it went; isError unless it is DEPLOYED or still being followed by choice. */
export function outcomeResult(outcome: Outcome, waited: boolean, extra: Record<string, unknown> = {}): ToolResult {
  const { revision } = outcome;
  const ended = isTerminalRevisionStatus(revision.status);
  const data: Record<string, unknown> = {
    deployment_id: outcome.deploymentId,
    revision_id: revision.id,
    status: revision.status,
    ended,
    revision,
    ...(outcome.deployment ? { deployment: outcome.deployment } : {}),
    ...extra,
  };
  const which = `revision ${revision.id} of deployment ${outcome.deploymentId}`;
  let summary: string;
  let isError = false;
  if (revision.status === "DEPLOYED") summary = `${which} is DEPLOYED.`;
  else if (outcome.timedOutAfterSeconds !== undefined) {
    summary = `${which} did not end within ${outcome.timedOutAfterSeconds} s; it is ${revision.status}. Call wait_for_revision to go on waiting.`;
    isError = true;
  } else if (!ended) summary = `${which} was created and is ${revision.status}${waited ? "" : " (not waited for)"}. wait_for_revision follows it.`;
  else if (revision.status === "INTERRUPTED") {
    summary = `${which} ended INTERRUPTED: a newer revision replaced it before it was deployed.`;
    isError = true;
  } else {
    summary = `${which} ended ${revision.status}: it was not deployed, and the revision serving before (if any) still serves.`;
    isError = true;
  }
  return dataResult(data, { summary, isError });
}

/** Waits for the revision, reporting each state it enters; a timeout answers the revision as last seen. */
export async function followRevision(context: ToolContext, deploymentId: string, revisionId: string, timeoutSeconds: number): Promise<Outcome> {
  let last: Revision | undefined;
  try {
    const revision = await waitForRevision(context.client, deploymentId, revisionId, {
      timeoutMs: timeoutSeconds * 1000,
      intervalMs: context.intervalMs,
      signal: context.signal,
      onStatus: (status, seen) => {
        last = seen;
        void context.progress(status);
      },
    });
    return { deploymentId, revision };
  } catch (error) {
    if (error instanceof RevisionWaitTimeoutError && last) return { deploymentId, revision: last, timedOutAfterSeconds: timeoutSeconds };
    throw error;
  }
}

/**
 * After a PATCH created `revisionId`: follows it (or, with `wait` false, reads it once). A failure
 * other than a cancel names the revision (CreatedRevisionUnreadError), so that the answer says
 * which revision exists and how to go on following it.
 */
export async function afterPatch(context: ToolContext, deploymentId: string, revisionId: string, wait: false): Promise<Revision>;
export async function afterPatch(context: ToolContext, deploymentId: string, revisionId: string, wait: true, timeoutSeconds: number): Promise<Outcome>;
export async function afterPatch(
  context: ToolContext,
  deploymentId: string,
  revisionId: string,
  wait: boolean,
  timeoutSeconds = DEFAULT_TIMEOUT_SECONDS,
): Promise<Revision | Outcome> {
  try {
    return wait ? await followRevision(context, deploymentId, revisionId, timeoutSeconds) : await currentRevision(context, deploymentId, revisionId);
  } catch (error) {
    if (context.signal.aborted) throw error;
    throw new CreatedRevisionUnreadError(deploymentId, revisionId, error);
  }
}

/** The revision as it is now, one GET. */
async function currentRevision(context: ToolContext, deploymentId: string, revisionId: string): Promise<Revision> {
  const path = { deployment_id: deploymentId, revision_id: revisionId };
  const result = await context.client.GET("/v2/deployments/{deployment_id}/revisions/{revision_id}", { params: { path }, signal: context.signal });
  const revision = unwrap(result);
  // The answer's words are written from its id and status (as waitForRevision checks them): an
  // answer without them is the service's error, and the revision was still created.
  const { id, status } = (revision ?? {}) as { id?: unknown; status?: unknown };
  if (!isUuid(id) || typeof status !== "string") {
    throw invalidResponseBody(
      result.response,
      revision,
      `the ${result.response.status} response is not a revision: its id is ${jsonExcerpt(id, 60) ?? "missing"} and its status ${jsonExcerpt(status, 60) ?? "missing"}`,
    );
  }
  return revision;
}

/** deploy's and rollback's dry_run. */
export const dryRunArgument = booleanArgument("true: send nothing; answer the plan (the PATCH, the revision it replaces, the source it runs).", false);

const deployArgs = {
  operationId: "patchDeployment",
  parameters: ["deployment_id"],
  body: true,
  own: { dry_run: dryRunArgument, ...waitArguments },
} as const;

/**
 * deploy's and rollback's output: the outcome of the change, or with dry_run the plan
 * ({ dry_run: true, plan }, the client's ChangePlan).
 */
export function changeSchema(extra: Record<string, JsonSchema> = {}): JsonSchema {
  const outcome = outcomeSchema(true);
  return {
    type: "object",
    properties: { ...(isPlainObject(outcome.properties) ? outcome.properties : {}), ...extra, dry_run: { type: "boolean" }, plan: { type: "object" } },
    anyOf: [{ required: outcome.required }, { required: ["dry_run", "plan"] }],
  };
}

/**
 * The source table (src/shared/source-rules.ts) in the tools' words: which fields each deployment
 * source takes. A field it does not take is refused before anything is sent.
 */
export const SOURCE_RULE_SENTENCE =
  "Which fields apply depends on the deployment's source (a field set to a value the source does not take is refused and " +
  `nothing is sent; null is always accepted): ${sourceRuleLines().join(" | ")}.`;

export const deploy: ToolDefinition = {
  name: "deploy",
  title: "Deploy a revision",
  description:
    "Deploys a new revision of a deployment: patches it with the fields given (at least one of source_revision_config, e.g. " +
    '{ repo_ref: "main" } or { image_uri }, secrets, secret_references or revision_source) and, by default, waits for the ' +
    "revision that patch created, reporting each state as progress. secrets REPLACE all of the deployment's secrets: send every " +
    "one it needs. source_config may go along (it changes the deployment in place). Answers the revision in its final state " +
    "(isError when it ended CREATE_FAILED, BUILD_FAILED, DEPLOY_FAILED, SKIPPED or INTERRUPTED) and the patched deployment. " +
    "Not idempotent: each call builds a new revision, and the one in progress before it ends INTERRUPTED. dry_run: true answers " +
    `the plan and sends nothing; the user may be asked to confirm first. ${SOURCE_RULE_SENTENCE}`,
  inputSchema: inputSchema(deployArgs),
  outputSchema: changeSchema(),
  annotations: writeHints({ destructive: true, idempotent: false }),
  async run(raw, context) {
    const read = readArguments(deployArgs, raw, "deploy");
    const patch = read.body;
    if (!createsRevision(patch)) {
      throw new ArgumentError([
        {
          field: REVISION_FIELDS.join(" | "),
          detail: "at least one is required and not null: without them the patch creates no revision, so there is nothing to deploy",
        },
      ]);
    }
    const deploymentId = read.path.deployment_id;
    // The plan is read only when it is shown: as the answer of a dry run, or to the person asked to confirm.
    if (read.own.dry_run === true || context.confirm) {
      const plan = await planDeploy(context.client, deploymentId, patch, { signal: context.signal });
      if (read.own.dry_run === true) return planResult("deploy", plan);
      if (!(await context.confirm!(plan))) return declinedResult("deploy", plan);
    }
    // A PATCH on its way is let through on cancel, so the service is never left guessing; the wait stops.
    const { deployment, revisionId } = await patchForRevision(context.client, deploymentId, patch, { signal: context.signal, abortPatch: false });
    const wait = read.own.wait !== false;
    if (!wait) return outcomeResult({ deploymentId, deployment, revision: await afterPatch(context, deploymentId, revisionId, false) }, false);
    const timeout = read.own.timeout_seconds ?? DEFAULT_TIMEOUT_SECONDS;
    return outcomeResult({ ...(await afterPatch(context, deploymentId, revisionId, true, timeout)), deployment }, true);
  },
};

const waitArgs = {
  operationId: "getRevision",
  parameters: ["deployment_id", "revision_id"],
  own: { timeout_seconds: waitArguments.timeout_seconds },
} as const;

export const waitForRevisionTool: ToolDefinition = {
  name: "wait_for_revision",
  title: "Wait for a revision",
  description:
    "Waits until a revision ends (DEPLOYED, CREATE_FAILED, BUILD_FAILED, DEPLOY_FAILED, SKIPPED or INTERRUPTED), reporting each " +
    "state as progress, and answers it. Use it after deploy with wait: false, or when a deploy's wait timed out. Changes nothing.",
  inputSchema: inputSchema(waitArgs),
  outputSchema: outcomeSchema(false),
  annotations: READ_HINTS,
  async run(raw, context) {
    const read = readArguments(waitArgs, raw, "wait_for_revision");
    const deploymentId = read.path.deployment_id;
    const timeout = read.own.timeout_seconds ?? DEFAULT_TIMEOUT_SECONDS;
    return outcomeResult(await followRevision(context, deploymentId, read.path.revision_id, timeout), true);
  },
};
