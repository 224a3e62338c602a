// dms deploy --dry-run and dms rollback --dry-run: the client's plan (src/client/plan.ts) printed,
// nothing sent. For people, a few lines saying what would be sent, what it would replace and what
// would run; with --json, one line {"event":"plan", ...} holding the plan. Secret values in the
// patch are masked as everywhere else.
import { type ChangePlan, planLines } from "../client/plan.js";
import { EXIT } from "./exit-codes.js";
import { elapsedMs, type RevisionRun } from "./follow.js";

/** Prints the plan and answers exit 0: the dry run did what it was asked. */
export function reportPlan(run: RevisionRun, plan: ChangePlan): number {
  const shown = run.io.redactor.data(plan) as ChangePlan;
  if (run.output.json) {
    run.output.event({ event: "plan", ...shown, elapsed_ms: elapsedMs(run) });
    return EXIT.ok;
  }
  run.output.line(`deployment ${shown.deployment_id}: dry run of ${shown.action}, nothing was sent`);
  for (const line of planLines(shown)) run.output.line(`  ${line}`);
  return EXIT.ok;
}
