// dms deploy --dry-run and dms rollback --dry-run against the simulator, the compiled CLI as a child
// process: the plan printed (a {"event":"plan"} line with --json), exit 0, nothing sent (the
// deployment's revisions and configuration as they were), secret values masked; and the plan is the
// one the client's planDeploy/planRollback make, whose patch the real command then sends.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDeploymentsClient, planDeploy, planRollback } from "../../src/index.js";
import { type RunningSimulator, SEED_IDS, startSimulator } from "../../src/simulator/node/index.js";
import { API_KEY, dms, jsonLines, SimulatorControl } from "./support.js";

let simulator: RunningSimulator;
let sim: SimulatorControl;

beforeAll(async () => {
  simulator = await startSimulator({ port: 0, stepSeconds: 0.02, quiet: true });
  sim = new SimulatorControl(simulator.url);
});
afterAll(() => simulator?.close());

/** What a dry run must leave as it was: the deployment and its whole revision list. */
async function state(id: string): Promise<unknown> {
  return { deployment: await sim.get(`/v2/deployments/${id}`), revisions: (await sim.get(`/v2/deployments/${id}/revisions?limit=100`)).resources };
}

describe("--dry-run", () => {
  const id = SEED_IDS.deployment_id;

  it("dms deploy --dry-run prints the PATCH, the revision it replaces and the source it would run; sends nothing; exit 0", async () => {
    const before = await state(id);
    const deployment = await sim.get(`/v2/deployments/${id}`);
    const json = await dms(["deploy", id, "--ref", "release/9", "--secret", "OPENAI_API_KEY=sk-dry-run-secret", "--dry-run", "--json"], sim.env());
    expect(json.code, json.stderr).toBe(0);
    const [plan, ...rest] = jsonLines(json.stdout);
    expect(rest).toEqual([]);
    expect(plan).toMatchObject({
      event: "plan",
      action: "deploy",
      deployment_id: id,
      request: {
        method: "PATCH",
        path: `/v2/deployments/${id}`,
        body: { source_revision_config: { repo_ref: "release/9" }, secrets: [{ name: "OPENAI_API_KEY", value: "***" }] },
      },
      replaces: { active_revision_id: deployment.active_revision_id, latest_revision_id: deployment.latest_revision_id },
      source: { revision_source: deployment.source, source_revision_config: { repo_ref: "release/9" } },
      sent: false,
    });
    expect(json.stdout + json.stderr).not.toContain("sk-dry-run-secret");
    const text = await dms(["deploy", id, "--ref", "release/9", "--dry-run"], sim.env());
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("dry run of deploy, nothing was sent");
    expect(text.stdout).toMatch(/would send: +PATCH \/v2\/deployments\/\S+ \{"source_revision_config":\{"repo_ref":"release\/9"\}\}/);
    expect(await state(id)).toEqual(before);
  });

  it("dms rollback --dry-run names the target and the patch the rollback then sends; the dry run sends nothing", async () => {
    const before = await state(id);
    const dry = await dms(["rollback", id, "--dry-run", "--json"], sim.env());
    expect(dry.code, dry.stderr).toBe(0);
    const [plan] = jsonLines(dry.stdout);
    expect(plan).toMatchObject({ event: "plan", action: "rollback", deployment_id: id, sent: false });
    expect(plan.target_revision_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await state(id)).toEqual(before);
    // The client's plan is the same plan.
    const client = createDeploymentsClient({ baseUrl: simulator.url, apiKey: API_KEY });
    const { event: _event, elapsed_ms: _elapsed, ...fromCli } = plan;
    expect(await planRollback(client, id)).toEqual(fromCli);
    // The real rollback goes to that target, and its new revision runs the planned source.
    const real = await dms(["rollback", id, "--json", "--interval", "20ms"], sim.env());
    expect(real.code, real.stderr).toBe(0);
    expect(jsonLines(real.stdout).find((e) => e.event === "rollback_target")?.target_revision_id).toBe(plan.target_revision_id);
    const after = await sim.get(`/v2/deployments/${id}`);
    const created = await sim.get(`/v2/deployments/${id}/revisions/${after.latest_revision_id}`);
    const { repo_commit_sha: _sha, ...ran } = created.source_revision_config;
    expect(ran).toEqual(plan.source.source_revision_config);
  });

  it("planDeploy answers what dms deploy --dry-run prints", async () => {
    const client = createDeploymentsClient({ baseUrl: simulator.url, apiKey: API_KEY });
    // The seeded deployment is scm_host: --ref is the revision flag it takes (src/shared/source-rules.ts).
    const patch = { source_revision_config: { repo_ref: "release/10" } };
    const dry = await dms(["deploy", id, "--ref", "release/10", "--dry-run", "--json"], sim.env());
    const { event: _event, elapsed_ms: _elapsed, ...fromCli } = jsonLines(dry.stdout)[0];
    expect(await planDeploy(client, id, patch)).toEqual(fromCli);
  });

  it("a dry run's errors are the command's: no rollback target is exit 7, an unknown deployment exit 6", async () => {
    const unknown = "00000000-0000-4000-8000-000000000000";
    const missing = await dms(["deploy", unknown, "--ref", "main", "--dry-run"], sim.env());
    expect(missing.code).toBe(6);
    const deployments = (await sim.get("/v2/deployments?limit=100")).resources as { id: string; active_revision_id: string | null }[];
    const noActive = deployments.find((d) => d.active_revision_id === null);
    if (noActive) {
      const none = await dms(["rollback", noActive.id, "--dry-run"], sim.env());
      expect(none.code, none.stderr).toBe(7);
    }
  });
});
