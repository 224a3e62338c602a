// dms rollback against the simulator, the compiled CLI run as a child process: the revision it
// goes back to, the patch, the wait and its exit codes, --json lines and GitHub outputs.
import { randomUUID } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { describeSource } from "../../src/cli/commands/rollback.js";
import type { Revision } from "../../src/index.js";
import { startSimulator, type RunningSimulator } from "../../src/simulator/node/index.js";
import { ROOT } from "../support/document.js";
import { dms, dmsInProcess, jsonLines, SimulatorControl } from "./support.js";

let simulator: RunningSimulator;
let sim: SimulatorControl;
let work: string;
/** Deployments with (and without) a DEPLOYED revision older than the active one, and without an active one. */
const roles = { withEarlier: [] as string[], withoutEarlier: [] as string[], noActive: [] as string[] };
const used = new Set<string>();

async function revisions(id: string): Promise<any[]> {
  return (await sim.get(`/v2/deployments/${id}/revisions?limit=100`)).resources;
}

/** The newest DEPLOYED revision older than the active one, found by this test itself. */
async function previousDeployed(id: string): Promise<any | undefined> {
  const { active_revision_id: active } = await sim.get(`/v2/deployments/${id}`);
  const list = await revisions(id);
  const at = list.findIndex((r) => r.id === active);
  return at === -1 ? undefined : list.slice(at + 1).find((r) => r.status === "DEPLOYED");
}

function take(list: string[], what: string): string {
  const id = list.find((candidate) => !used.has(candidate));
  if (!id) throw new Error(`the seed has no more deployments ${what}`);
  used.add(id);
  return id;
}

beforeAll(async () => {
  simulator = await startSimulator({ port: 0, stepSeconds: 0.05, quiet: true, seedDeployments: 60 });
  sim = new SimulatorControl(simulator.url);
  work = await mkdtemp(join(tmpdir(), "dms-rollback-"));
  // The seed's revisions in progress end first, so that no active revision changes under a test.
  await sim.advance(3600);
  for (const id of await sim.deploymentIds()) {
    const d = await sim.get(`/v2/deployments/${id}`);
    if (d.active_revision_id === null) roles.noActive.push(id);
    else if (d.source === "scm_host" && (await previousDeployed(id))) roles.withEarlier.push(id);
    else if (!(await previousDeployed(id))) roles.withoutEarlier.push(id);
  }
});
afterAll(async () => {
  await simulator?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

async function githubOutput() {
  const file = join(work, `${randomUUID()}.output`);
  await writeFile(file, "");
  return { env: { GITHUB_ACTIONS: "true", GITHUB_OUTPUT: file }, read: () => readFile(file, "utf8") };
}

const FAST_POLL = ["--interval", "20ms"];

describe.concurrent("dms rollback", () => {
  it("exit 0: goes back to the newest DEPLOYED revision before the active one, pinned to its commit, and waits", async () => {
    const id = take(roles.withEarlier, "with an earlier DEPLOYED revision");
    const target = await previousDeployed(id);
    const gh = await githubOutput();
    const result = await dms(["rollback", id, ...FAST_POLL], sim.env(gh.env));
    expect(result.stderr).not.toMatch(/::error/);
    expect(result.code).toBe(0);
    const deployment = await sim.get(`/v2/deployments/${id}`);
    const revisionId = deployment.latest_revision_id;
    expect(deployment.active_revision_id).toBe(revisionId);
    expect(deployment.source_revision_config.repo_ref).toBe(target.source_revision_config.repo_commit_sha);
    expect(deployment.source_revision_config.repo_commit_sha).toBe(target.source_revision_config.repo_commit_sha);
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe(
      `deployment ${id}: rolling back to revision ${target.id} (DEPLOYED), commit ${target.source_revision_config.repo_commit_sha} (${target.source_revision_config.repo_ref})`,
    );
    expect(lines[1]).toBe(`deployment ${id}: revision ${revisionId} created`);
    expect(lines.at(-1)).toMatch(new RegExp(`^revision ${revisionId} DEPLOYED after `));
    expect(await gh.read()).toContain(`revision_id=${revisionId}\n`);
    expect(await gh.read()).toContain("status=DEPLOYED\n");
  });

  it("--to <revision-id> --json: a rollback_target event, the deploy events, then the result", async () => {
    const id = take(roles.withEarlier, "with an earlier DEPLOYED revision");
    const oldest = (await revisions(id)).at(-1);
    const result = await dms(["rollback", id, "--to", oldest.id, "--json", ...FAST_POLL], sim.env());
    expect(result.code).toBe(0);
    const events = jsonLines(result.stdout);
    expect(events[0]).toMatchObject({
      event: "rollback_target",
      deployment_id: id,
      target_revision_id: oldest.id,
      source_revision_config: oldest.source_revision_config,
    });
    const { latest_revision_id: revisionId } = await sim.get(`/v2/deployments/${id}`);
    expect(events[1]).toMatchObject({ event: "revision_created", revision_id: revisionId });
    expect(events.at(-1)).toMatchObject({ event: "result", deployment_id: id, revision_id: revisionId, status: "DEPLOYED", exit_code: 0 });
  });

  it("exit 1 when the rollback's revision fails, as for a deploy", async () => {
    const id = take(roles.withEarlier, "with an earlier DEPLOYED revision");
    await sim.failNext(id, "DEPLOY_FAILED");
    const result = await dms(["rollback", id, "--json", ...FAST_POLL], sim.env());
    expect(result.code).toBe(1);
    expect(jsonLines(result.stdout).at(-1)).toMatchObject({ event: "result", status: "DEPLOY_FAILED", exit_code: 1 });
  });

  it("--to active after a failed deploy: deploys again what runs now, and the configuration names it again", async () => {
    const id = take([...roles.withoutEarlier, ...roles.withEarlier], "with an active revision");
    const before = await sim.get(`/v2/deployments/${id}`);
    const running = await sim.get(`/v2/deployments/${id}/revisions/${before.active_revision_id}`);
    await sim.failNext(id, "BUILD_FAILED");
    // The flag of the field this deployment's source takes (src/shared/source-rules.ts).
    const broken: Record<string, string[]> = {
      scm_host: ["--ref", "broken"],
      internal_source: ["--source-tarball-path", "uploads/broken.tar.gz"],
      internal_docker: ["--image-uri", "registry.example.com/broken:1"],
      external_docker: ["--image-uri", "registry.example.com/broken:1"],
    };
    expect((await dms(["deploy", id, ...broken[before.source]!, ...FAST_POLL], sim.env())).code).toBe(1);
    const result = await dms(["rollback", id, "--to", "ACTIVE", ...FAST_POLL], sim.env());
    expect(result.code, result.stderr).toBe(0);
    const after = await sim.get(`/v2/deployments/${id}`);
    expect(after.active_revision_id).toBe(after.latest_revision_id);
    const { repo_commit_sha: sha, ...config } = running.source_revision_config;
    expect(after.source_revision_config).toMatchObject(sha ? { ...config, repo_ref: sha } : config);
  });

  it("exit 7 when there is nothing to roll back to, and nothing is patched", async () => {
    const id = take(roles.withoutEarlier, "without an earlier DEPLOYED revision");
    const before = await sim.get(`/v2/deployments/${id}`);
    const gh = await githubOutput();
    const result = await dms(["rollback", id, "--json"], sim.env(gh.env));
    expect(result.code).toBe(7);
    expect(jsonLines(result.stdout).at(-1)).toMatchObject({
      event: "result",
      exit_code: 7,
      revision_id: null,
      error: { kind: "no_rollback_target", active_revision_id: before.active_revision_id },
    });
    expect(result.stderr).toContain("nothing to roll back to");
    expect((await sim.get(`/v2/deployments/${id}`)).latest_revision_id).toBe(before.latest_revision_id);
    expect(await gh.read()).toContain("status=\n");
    const noActive = take(roles.noActive, "without an active revision");
    expect((await dms(["rollback", noActive], sim.env())).code).toBe(7);
    expect((await dms(["rollback", noActive, "--to", "active"], sim.env())).code).toBe(7);
  });

  it("exit 6 for a revision the deployment does not have, and nothing is patched", async () => {
    const id = take(roles.withoutEarlier, "with an active revision");
    const before = await sim.get(`/v2/deployments/${id}`);
    const result = await dms(["rollback", id, "--to", randomUUID()], sim.env());
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(/404/);
    expect((await sim.get(`/v2/deployments/${id}`)).latest_revision_id).toBe(before.latest_revision_id);
  });

  it("--to previous (any case) is the default: the same plan, the same target", async () => {
    const id = take(roles.withEarlier, "with an earlier DEPLOYED revision");
    const target = await previousDeployed(id);
    const plans = await Promise.all(
      [[], ["--to", "previous"], ["--to=PREVIOUS"]].map(async (to) => {
        const result = await dmsInProcess(["rollback", id, ...to, "--dry-run", "--json"], sim.env());
        expect(result.code, result.stderr).toBe(0);
        return jsonLines(result.stdout).map(({ elapsed_ms: _elapsed, ...line }) => line);
      }),
    );
    expect(plans[1]).toEqual(plans[0]);
    expect(plans[2]).toEqual(plans[0]);
    expect(JSON.stringify(plans[0])).toContain(target.id);
  });

  it("exit 2 for a --to that is neither a UUID, active nor previous, before anything is sent", async () => {
    const result = await dms(["rollback", randomUUID(), "--to", "latest"], sim.env());
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--to "latest" is neither a revision\'s UUID, active nor previous');
  });
});

describe("docs/cli.md", () => {
  it("the workflow that rolls back when a deploy fails gives the Action only inputs it declares", async () => {
    const page = await readFile(join(ROOT, "docs/cli.md"), "utf8");
    const block = [...page.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)].map((m) => m[1]!).find((b) => b.includes("rollback-to:"))!;
    const steps = parse(block) as { uses?: string; with?: Record<string, string> }[];
    const action = parse(await readFile(join(ROOT, "action.yml"), "utf8")) as { inputs: Record<string, unknown> };
    const uses = steps.filter((step) => step.uses?.includes("deployment-management-api"));
    expect(uses).toHaveLength(2);
    for (const step of uses) for (const name of Object.keys(step.with ?? {})) expect(action.inputs).toHaveProperty(name);
    expect(uses[1]!.with!["rollback-to"]).toMatch(/'previous'.*'active'/);
  });
});

describe("the target line of dms rollback", () => {
  const scm = (config: Record<string, string>) =>
    ({ id: randomUUID(), status: "DEPLOYED", source: "scm_host", source_revision_config: config }) as unknown as Revision;
  const sha = "9f53a0206d6d662278ac7c8257a7bc91eb0870b1";

  it("names the commit, and the ref only when it says more than the commit (a rolled-back revision's ref is its commit)", () => {
    expect(describeSource(scm({ repo_ref: "main", repo_commit_sha: sha }))).toBe(`commit ${sha} (main)`);
    expect(describeSource(scm({ repo_ref: sha, repo_commit_sha: sha }))).toBe(`commit ${sha}`);
  });

  it("without a reported commit, says the ref is built as it is now; without a ref either, never prints undefined", () => {
    expect(describeSource(scm({ repo_ref: "main" }))).toMatch(/^ref main \(the revision reported no commit: .*may differ from what it ran\)$/);
    expect(describeSource(scm({}))).not.toContain("undefined");
  });
});
