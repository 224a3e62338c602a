// deployRevision: patch a deployment and wait for the revision the patch created, the usual CI/CD step.
import { jsonExcerpt } from "./problem-details.js";
import type { DeploymentsClient } from "./client.js";
import { invalidResponseBody, unwrap } from "./errors.js";
import { serializeJsonBody } from "./json-body.js";
import { terminalSafe } from "../shared/terminal-text.js";
import { isUuid } from "../shared/uuid.js";
import { type SourceFieldViolation, type RevisionSourceViolation, sourceViolations } from "../shared/source-rules.js";
import type { Deployment, DeploymentPatch, Revision, Source } from "../shared/types.js";
import { checkWaitOptions, type WaitForRevisionOptions, waitForRevision } from "./wait-for-revision.js";

/** The patch was applied but created no revision, so there is nothing to wait for. */
export class NoRevisionCreatedError extends Error {
  override readonly name = "NoRevisionCreatedError";
  constructor(readonly deployment: Deployment) {
    super(
      terminalSafe(
        `the patch of deployment ${deployment.id} created no revision (latest_revision_id is still ` +
          `${deployment.latest_revision_id}): a revision needs source_revision_config, secrets, ` +
          `secret_references or revision_source present and not null; source_config alone changes the deployment in place`,
      ),
    );
  }
}

/**
 * The PATCH was sent and its connection failed or was cut before a complete answer: the service
 * may have applied it (a RequestTimeoutError on a PATCH means the same). `cause` is fetch's error.
 */
export class PatchOutcomeUnknownError extends Error {
  override readonly name = "PatchOutcomeUnknownError";
  constructor(
    readonly deploymentId: string,
    override readonly cause: TypeError,
  ) {
    const reason = (cause.cause as { code?: string; message?: string } | undefined)?.code ?? (cause.cause as Error | undefined)?.message ?? cause.message;
    super(`PATCH /v2/deployments/${deploymentId} got no complete answer (${reason})`);
  }
}

/**
 * The patch sends a field the deployment's source does not take (src/shared/source-rules.ts), so
 * the service would refuse it: thrown before the PATCH is sent, naming each field.
 */
export class SourceMismatchError extends Error {
  override readonly name = "SourceMismatchError";
  /** Each field that does not fit, revision_source first: `pointer`, dotted `field` and `detail`. */
  readonly violations: readonly (SourceFieldViolation | RevisionSourceViolation)[];
  constructor(
    readonly deploymentId: string,
    readonly source: Source,
    violations: readonly (SourceFieldViolation | RevisionSourceViolation)[],
  ) {
    super(
      terminalSafe(
        `deployment ${deploymentId} is ${source}; nothing was sent: ` +
          violations.map((v) => (v.field === "revision_source" ? v.detail : `${v.field} ${v.detail}`)).join("; "),
      ),
    );
    this.violations = violations;
  }
}

/** The fields of a deployment answer a change reads, each with its rule (the document's) and its words. */
const DEPLOYMENT_FIELD_RULES = {
  source_revision_config: [(v: unknown) => typeof v === "object" && v !== null && !Array.isArray(v), "an object"],
  active_revision_id: [(v: unknown) => v === null || isUuid(v), "a UUID or null"],
  latest_revision_id: [(v: unknown) => v === null || isUuid(v), "a UUID or null"],
} as const;

/**
 * Checks the fields of a deployment answer that a change reads (a plan, a rollback's target), where
 * they are read: an answer off the document there (a field missing, of another type) is the
 * service's error, an ApiError titled "Invalid response body" naming the field, never a TypeError
 * of the code that reads it or "undefined" in a message.
 */
export function checkDeploymentFields(deployment: Deployment, fields: readonly (keyof typeof DEPLOYMENT_FIELD_RULES)[], response?: Response): void {
  for (const field of fields) {
    const value = (deployment as unknown as Record<string, unknown> | null)?.[field];
    const [valid, what] = DEPLOYMENT_FIELD_RULES[field];
    if (valid(value)) continue;
    // Without the response (read earlier, elsewhere), the request that read it, for the message.
    const read = response ?? { method: "GET", url: `/v2/deployments/${String(deployment?.id)}` };
    throw invalidResponseBody(read, deployment, `the deployment's ${field} is ${jsonExcerpt(value, 60) ?? "missing"}, not ${what}`);
  }
}

/** Throws SourceMismatchError when `patch` breaks the source table for `deployment`. */
export function checkPatchFitsSource(deployment: Pick<Deployment, "id" | "source">, patch: DeploymentPatch): void {
  const { revisionSource, fields } = sourceViolations(deployment.source, patch);
  const violations = [...(revisionSource ? [revisionSource] : []), ...fields];
  if (violations.length > 0) throw new SourceMismatchError(deployment.id, deployment.source, violations);
}

export interface DeployedRevision {
  /** The deployment as the PATCH returned it. */
  deployment: Deployment;
  /** The new revision in its terminal state: check `status === "DEPLOYED"` (or pass `throwOnFailure`). */
  revision: Revision;
}

/**
 * The first half of deployRevision: read the deployment, PATCH it, and return the id of the
 * revision this patch created, or throw NoRevisionCreatedError (after the patch was applied). The
 * patch must fit the deployment's source (SourceMismatchError, nothing sent). The
 * `signal` stops the read, and the PATCH too unless `abortPatch` is false: `dms deploy` lets a sent
 * PATCH finish on Ctrl+C or SIGTERM, so that the revision it created can be reported and resumed.
 */
export async function patchForRevision(
  client: DeploymentsClient,
  deploymentId: string,
  patch: DeploymentPatch,
  options: { signal?: AbortSignal | undefined; abortPatch?: boolean } = {},
): Promise<{ deployment: Deployment; revisionId: string }> {
  const { signal, abortPatch = true } = options;
  // A body the client would refuse to send (NaN, an infinity) is refused here, before anything is
  // read: refused by the PATCH, its TypeError would read below as a connection cut after sending.
  serializeJsonBody(patch);
  const params = { path: { deployment_id: deploymentId } };
  const before = unwrap(await client.GET("/v2/deployments/{deployment_id}", { params, signal }));
  // A patch the deployment's source does not take is refused by the service: say so before sending it.
  checkPatchFitsSource(before, patch);
  const sent = client.PATCH("/v2/deployments/{deployment_id}", { params, body: patch, signal: abortPatch ? signal : undefined });
  const answered = await sent.catch((error: unknown) => {
    // fetch fails with a TypeError when the connection fails or is cut: the PATCH may have arrived.
    throw error instanceof TypeError ? new PatchOutcomeUnknownError(deploymentId, error) : error;
  });
  const deployment = unwrap(answered);
  const revisionId = deployment.latest_revision_id;
  if (revisionId === null || revisionId === before.latest_revision_id) throw new NoRevisionCreatedError(deployment);
  // The id goes into the path of every read that follows and is printed to resume a wait: an answer
  // whose id is not the document's UUID ("..", "", a name) is the service's error, said as one.
  if (!isUuid(revisionId)) {
    throw invalidResponseBody(answered.response, deployment, `the PATCH answer's latest_revision_id ${jsonExcerpt(revisionId, 60) ?? "(none)"} is not a UUID`);
  }
  return { deployment, revisionId };
}

/**
 * PATCH /v2/deployments/{deploymentId} with the body, then waitForRevision on the response's
 * `latest_revision_id`. Reads the deployment first so that a patch that created no revision is
 * reported (NoRevisionCreatedError, after the patch was applied) instead of waiting on an old one.
 * The PATCH itself is never retried.
 */
export async function deployRevision(
  client: DeploymentsClient,
  deploymentId: string,
  patch: DeploymentPatch,
  options: WaitForRevisionOptions = {},
): Promise<DeployedRevision> {
  // A bad wait option found after the PATCH would leave a revision running that nobody waits for.
  checkWaitOptions(options, "deployRevision");
  const { deployment, revisionId } = await patchForRevision(client, deploymentId, patch, { signal: options.signal });
  const revision = await waitForRevision(client, deploymentId, revisionId, options);
  return { deployment, revision };
}
