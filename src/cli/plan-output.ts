// dms deploy --dry-run and dms rollback --dry-run: the client's plan (src/client/plan.ts) printed,
// nothing sent. For people, a few lines saying what would be sent, what it would replace and what
// would run; with --json, one line {"event":"plan", ...} holding the plan. Secret values in the
// patch are masked as everywhere else.
import type { ChangePlan } from "../client/plan.js";
import { EXIT } from "./exit-codes.js";
import { elapsedMs, type RevisionRun } from "./follow.js";

/** `repo_ref=main image_uri=…`: a revision config on one line. */
function configLine(config: Record<string, unknown>): string {
  const fields = Object.entries(config).filter(([, value]) => value !== undefined && value !== null);
  return fields.length === 0 ? "(no fields)" : fields.map(([name, value]) => `${name}=${String(value)}`).join(" ");
}

/** Prints the plan and answers exit 0: the dry run did what it was asked. */
export function reportPlan(run: RevisionRun, plan: ChangePlan): number {
  const shown = run.io.redactor.data(plan) as ChangePlan;
  if (run.output.json) {
    run.output.event({ event: "plan", ...shown, elapsed_ms: elapsedMs(run) });
    return EXIT.ok;
  }
  const { replaces } = shown;
  run.output.line(`deployment ${shown.deployment_id}: dry run of ${shown.action}, nothing was sent`);
  if (shown.target_revision_id) run.output.line(`  going back to: revision ${shown.target_revision_id}`);
  run.output.line(`  would send:    ${shown.request.method} ${shown.request.path} ${JSON.stringify(shown.request.body)}`);
  const active = replaces.active_revision_id === null ? "no active revision" : `active revision ${replaces.active_revision_id}`;
  const latest =
    replaces.latest_revision_id !== null && replaces.latest_revision_id !== replaces.active_revision_id
      ? `; latest revision ${replaces.latest_revision_id} ends INTERRUPTED if still in progress`
      : "";
  run.output.line(`  would replace: ${active} (once the new revision is DEPLOYED)${latest}`);
  run.output.line(`  would run:     ${shown.source.revision_source} ${configLine(shown.source.source_revision_config)}`);
  return EXIT.ok;
}
