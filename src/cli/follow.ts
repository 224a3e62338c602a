// The part `dms deploy` and `dms wait` share: wait for one revision while reporting each state
// change, then report the outcome (stdout, --json, GitHub Actions) and choose the exit code.
import type { DeploymentsClient } from "../client/client.js";
import type { RevisionStatus } from "../shared/types.js";
import { unwrap } from "../client/errors.js";
import { SourceMismatchError } from "../client/deploy-revision.js";
import { sourceMismatchMessage } from "./deploy-patch.js";
import { isTerminalRevisionStatus, RevisionWaitTimeoutError, waitForRevision } from "../client/wait-for-revision.js";
import { EXIT, exitCodeForStatus } from "./exit-codes.js";
import { annotateError, appendGithubSummary, markdownCode, markdownText, writeGithubOutputs } from "./github.js";
import { Interrupted } from "./interrupt.js";
import { formatElapsed, type Io, type Output, type Style } from "./output.js";
import { describeError, type DescribedError } from "./problem.js";

export interface RevisionRun {
  io: Io;
  output: Output;
  command: "deploy" | "wait" | "rollback";
  baseUrl: string;
  deploymentId: string;
  /** performance.now() when the command started; every elapsed time counts from it. */
  startedAt: number;
  /** The flags a resumed `dms wait` should repeat (never the API key). */
  resumeFlags: string[];
  /** The GitHub outputs written so far, so each is written once, as soon as it is known. */
  outputs?: Record<string, string>;
}

/** Writes the step outputs that are new or changed, at once: a step killed later still leaves them. */
export function setOutputs(run: RevisionRun, outputs: Record<string, string>): void {
  run.outputs ??= {};
  const written = run.outputs;
  const fresh = Object.fromEntries(Object.entries(outputs).filter(([name, value]) => written[name] !== value));
  if (Object.keys(fresh).length === 0) return;
  Object.assign(written, fresh);
  writeGithubOutputs(run.io, fresh);
}

function isSignalExit(code: number): boolean {
  return code === EXIT.interrupted || code === EXIT.terminated;
}

export interface RunOutcome {
  revisionId: string | null;
  status: RevisionStatus | null;
  exitCode: number;
  /** Why the command did not end with a revision state, for people and the result object. */
  error?: DescribedError;
}

export function elapsedMs(run: RevisionRun): number {
  return Math.round(performance.now() - run.startedAt);
}

const STATUS_STYLE: Partial<Record<RevisionStatus, Style>> = {
  DEPLOYED: "green",
  CREATE_FAILED: "red",
  BUILD_FAILED: "red",
  DEPLOY_FAILED: "red",
  INTERRUPTED: "yellow",
  SKIPPED: "yellow",
};

/** Quotes an argument for a POSIX shell when it needs it. */
function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

function resumeCommand(run: RevisionRun, revisionId: string): string {
  return ["dms", "wait", run.deploymentId, revisionId, ...run.resumeFlags].map(shellQuote).join(" ");
}

/** Reports a state change: a line for people, an event with --json. */
function reportStatus(run: RevisionRun, revisionId: string, status: RevisionStatus): void {
  const elapsed = elapsedMs(run);
  if (run.output.json) {
    run.output.event({ event: "status", deployment_id: run.deploymentId, revision_id: revisionId, status, elapsed_ms: elapsed });
  } else {
    run.output.line(`${formatElapsed(elapsed).padStart(7)}  ${status}`, STATUS_STYLE[status]);
  }
}

/**
 * --no-wait: the revision just created, read once, so that the result carries its status (a fresh
 * revision is CREATING or QUEUED, never "no status"); never throws.
 */
export async function createdOutcome(run: RevisionRun, client: DeploymentsClient, revisionId: string, signal: AbortSignal): Promise<RunOutcome> {
  try {
    const revision = unwrap(
      await client.GET("/v2/deployments/{deployment_id}/revisions/{revision_id}", {
        params: { path: { deployment_id: run.deploymentId, revision_id: revisionId } },
        signal,
      }),
    );
    return { revisionId, status: revision.status ?? null, exitCode: EXIT.ok };
  } catch (error) {
    return failedOutcome(run, error, revisionId, null);
  }
}

/** Waits for the revision; never throws: every way it can end is an outcome. */
export async function followRevision(
  run: RevisionRun,
  client: DeploymentsClient,
  revisionId: string,
  options: { timeoutMs: number; intervalMs: number; signal: AbortSignal },
): Promise<RunOutcome> {
  let last: RevisionStatus | null = null;
  run.output.startSpinner(() => `${last ?? "waiting"}  ${formatElapsed(elapsedMs(run))}`);
  try {
    const revision = await waitForRevision(client, run.deploymentId, revisionId, {
      timeoutMs: options.timeoutMs,
      intervalMs: options.intervalMs,
      signal: options.signal,
      onStatus: (status) => {
        last = status;
        reportStatus(run, revisionId, status);
      },
    });
    const status = revision.status ?? null;
    return { revisionId, status, exitCode: exitCodeForStatus(revision.status) };
  } catch (error) {
    return failedOutcome(run, error, revisionId, last);
  } finally {
    run.output.stopSpinner();
  }
}

/** The outcome of an error thrown while deploying or waiting. */
export function failedOutcome(run: RevisionRun, error: unknown, revisionId: string | null, status: RevisionStatus | null): RunOutcome {
  if (error instanceof Interrupted) {
    return {
      revisionId,
      status,
      exitCode: error.exitCode,
      error: { summary: error.message, details: [], json: { kind: "interrupted", signal: error.signal } },
    };
  }
  // A patch the deployment's source does not take was never sent: a usage error naming the flag.
  if (error instanceof SourceMismatchError) {
    const summary = sourceMismatchMessage(error, run.command === "rollback" ? "rollback" : "deploy");
    return {
      revisionId,
      status,
      exitCode: EXIT.usage,
      error: { summary, details: [], json: { kind: "source_mismatch", source: error.source, fields: error.violations.map((v) => v.field) } },
    };
  }
  if (error instanceof RevisionWaitTimeoutError) {
    const summary = `revision ${revisionId} did not end within ${formatElapsed(error.timeoutMs)}; last status ${status ?? "none"}`;
    return { revisionId, status, exitCode: EXIT.timeout, error: { summary, details: [], json: { kind: "timeout", timeout_ms: error.timeoutMs } } };
  }
  return { revisionId, status, exitCode: EXIT.apiError, error: describeError(run.io.redactor.error(error), run.baseUrl) };
}

/** Prints the outcome, writes the GitHub Actions files, and returns the exit code. */
export function finish(run: RevisionRun, outcome: RunOutcome): number {
  const { io, output } = run;
  const elapsed = elapsedMs(run);
  // A wait cut short, by a signal, by --timeout or by an API error after the revision was created,
  // leaves a revision that may still end well: say how to take the wait up again (running the
  // command again would create another revision).
  const waitFailed = outcome.exitCode === EXIT.apiError && outcome.revisionId !== null && !isTerminalRevisionStatus(outcome.status ?? undefined);
  const cutShort = isSignalExit(outcome.exitCode) || outcome.exitCode === EXIT.timeout || waitFailed;
  const resume = cutShort && outcome.revisionId ? resumeCommand(run, outcome.revisionId) : undefined;

  if (outcome.error) {
    output.diagnostic(`dms ${run.command}: ${outcome.error.summary}`, "red");
    for (const line of outcome.error.details) output.diagnostic(line);
  }
  if (cutShort) {
    output.diagnostic(`deployment ${run.deploymentId}`);
    output.diagnostic(`revision   ${outcome.revisionId ?? "(none created)"}`);
    if (resume) output.diagnostic(`resume with: ${resume}`);
  }
  if (output.json) {
    output.event({
      event: "result",
      deployment_id: run.deploymentId,
      revision_id: outcome.revisionId,
      status: outcome.status,
      elapsed_ms: elapsed,
      exit_code: outcome.exitCode,
      // The error's problem body is the server's: its echoes of secrets are hidden by structure.
      ...(outcome.error ? { error: outcome.error.json } : {}),
      ...(resume ? { resume } : {}),
    });
  } else if (outcome.status && !outcome.error) {
    const style = STATUS_STYLE[outcome.status];
    output.line(`revision ${outcome.revisionId} ${outcome.status} after ${formatElapsed(elapsed)}`, style);
  }

  setOutputs(run, {
    deployment_id: run.deploymentId,
    revision_id: outcome.revisionId ?? "",
    status: outcome.status ?? "",
  });
  appendGithubSummary(io, summaryMarkdown(run, outcome, elapsed));
  if (outcome.exitCode !== EXIT.ok) {
    const message = outcome.error?.summary ?? `revision ${outcome.revisionId} ended ${outcome.status}`;
    annotateError(io, `dms ${run.command}`, message);
  }
  return outcome.exitCode;
}

/** The job summary: what the server sent (the revision id, its status, an error) as markdown text, never as markdown. */
function summaryMarkdown(run: RevisionRun, outcome: RunOutcome, elapsed: number): string {
  const icon = outcome.exitCode === EXIT.ok ? "✅" : "❌";
  const headline = outcome.status ? markdownText(outcome.status) : outcome.error ? "error" : "created";
  const rows = [
    `### ${icon} dms ${run.command}: ${headline}`,
    "",
    "| | |",
    "|---|---|",
    `| deployment | ${markdownCode(run.deploymentId)} |`,
    `| revision | ${outcome.revisionId ? markdownCode(outcome.revisionId) : "none"} |`,
    `| status | ${outcome.status ? markdownText(outcome.status) : "none"} |`,
    `| elapsed | ${formatElapsed(elapsed)} |`,
    `| exit code | ${outcome.exitCode} |`,
  ];
  if (outcome.error) rows.push("", markdownText(outcome.error.summary));
  return `${rows.join("\n")}\n`;
}
