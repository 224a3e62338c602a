// The revision rules (docs/decisions.md, "Revision rules"), over real HTTP: what creates a revision, the state sequence on
// the simulated clock, INTERRUPTED, latest/active revision ids, fail-next, AWAITING_DATABASE -> READY.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { PROGRESSION } from "../../src/simulator/core/lifecycle.js";
import { SEED_IDS } from "../../src/simulator/core/seed.js";
import type { RunningSimulator } from "../../src/simulator/node/index.js";
import { startTestSimulator, type Client } from "./support.js";

// Long steps, so real time never moves a revision during a test; POST /_simulator/advance does.
const STEP = 60;
let simulator: RunningSimulator;
let client: Client;

beforeAll(async () => {
  ({ simulator, client } = await startTestSimulator({ stepSeconds: STEP }));
});
afterAll(() => simulator.close());
beforeEach(async () => {
  expect((await client.request("POST", "/_simulator/reset")).status).toBe(200);
});

const deploymentPath = (id: string) => `/v2/deployments/${id}`;
const revisionCount = async (id: string) => (await client.ok(`${deploymentPath(id)}/revisions?limit=100`)).resources.length;
const revisionStatus = async (deploymentId: string, revisionId: string) => (await client.ok(`${deploymentPath(deploymentId)}/revisions/${revisionId}`)).status;

/** A deployment of each source, from the seed, so every trigger is tried on a fitting source. */
async function deploymentOf(source: string): Promise<any> {
  const all = await client.allDeployments();
  const found = all.find((d) => d.source === source && d.status === "READY");
  expect(found, `a READY ${source} deployment in the seed`).toBeDefined();
  return found;
}

describe("what creates a revision", () => {
  const triggers: Array<[string, string, Record<string, unknown>]> = [
    ["source_revision_config", "scm_host", { source_revision_config: { repo_ref: "feature/new-prompt" } }],
    ["secrets", "internal_docker", { secrets: [{ name: "OPENAI_API_KEY", value: "sk-new" }] }],
    ["secret_references", "external_docker", { secret_references: [{ name: "DB", secret_name: "db", secret_key: "url" }] }],
    ["revision_source", "internal_docker", { revision_source: "internal_docker" }],
  ];

  for (const [field, source, patch] of triggers) {
    it(`a non-null ${field} creates a revision, and latest_revision_id points to it at once`, async () => {
      const before = await deploymentOf(source);
      const count = await revisionCount(before.id);
      const answer = await client.patch(deploymentPath(before.id), patch);
      expect(answer.status).toBe(200);
      const after = answer.body;
      expect(after.latest_revision_id).not.toBe(before.latest_revision_id);
      expect(after.active_revision_id).toBe(before.active_revision_id);
      expect(await revisionCount(before.id)).toBe(count + 1);
      const revision = await client.ok(`${deploymentPath(before.id)}/revisions/${after.latest_revision_id}`);
      expect(revision.status).toBe("CREATING");
      expect(revision.source).toBe(field === "revision_source" ? patch.revision_source : before.source);
      // The newest revision is first in the list.
      const list = await client.ok(`${deploymentPath(before.id)}/revisions?limit=1`);
      expect(list.resources[0].id).toBe(after.latest_revision_id);
    });
  }

  it("source_config alone updates the deployment and creates no revision", async () => {
    const before = await client.ok(deploymentPath(SEED_IDS.deployment_id));
    const count = await revisionCount(before.id);
    const answer = await client.patch(deploymentPath(before.id), { source_config: { build_on_push: false, custom_url: "https://x.example.com" } });
    expect(answer.status).toBe(200);
    expect(answer.body.source_config.build_on_push).toBe(false);
    expect(answer.body.source_config.custom_url).toBe("https://x.example.com");
    // Fields not sent are kept.
    expect(answer.body.source_config.repo_url).toBe(before.source_config.repo_url);
    expect(answer.body.latest_revision_id).toBe(before.latest_revision_id);
    expect(await revisionCount(before.id)).toBe(count);
    expect(answer.body.updated_at > before.updated_at).toBe(true);
  });

  it("null trigger fields create no revision", async () => {
    const before = await client.ok(deploymentPath(SEED_IDS.deployment_id));
    const count = await revisionCount(before.id);
    // (The document does not let source_revision_config be null.)
    const answer = await client.patch(deploymentPath(before.id), {
      secrets: null,
      secret_references: null,
      revision_source: null,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.latest_revision_id).toBe(before.latest_revision_id);
    expect(await revisionCount(before.id)).toBe(count);
  });
});

describe("the revision lifecycle", () => {
  it(`advances ${PROGRESSION.join(", ")} one step per step_seconds; active_revision_id follows at DEPLOYED`, async () => {
    const id = SEED_IDS.deployment_id;
    const before = await client.ok(deploymentPath(id));
    const { body } = await client.patch(deploymentPath(id), { source_revision_config: { repo_ref: "release" } });
    const revisionId = body.latest_revision_id;
    expect(body.source_revision_config.repo_ref).toBe("release");
    expect(body.source_revision_config.repo_commit_sha).toMatch(/^[0-9a-f]{40}$/);
    const seen = [await revisionStatus(id, revisionId)];
    for (let i = 1; i < PROGRESSION.length; i++) {
      // Half a step changes nothing; the other half moves it one state.
      await client.advance(STEP / 2);
      expect(await revisionStatus(id, revisionId)).toBe(seen.at(-1));
      await client.advance(STEP / 2);
      seen.push(await revisionStatus(id, revisionId));
      const d = await client.ok(deploymentPath(id));
      expect(d.latest_revision_id).toBe(revisionId);
      expect(d.active_revision_id).toBe(seen.at(-1) === "DEPLOYED" ? revisionId : before.active_revision_id);
    }
    expect(seen).toEqual(PROGRESSION);
    // Terminal: more time changes nothing.
    await client.advance(STEP * 10);
    expect(await revisionStatus(id, revisionId)).toBe("DEPLOYED");
  });

  it("a revision still in progress when a newer one is created ends INTERRUPTED; a finished one keeps its state", async () => {
    const id = SEED_IDS.deployment_id;
    const first = (await client.patch(deploymentPath(id), { source_revision_config: { repo_ref: "a" } })).body.latest_revision_id;
    await client.advance(STEP * 3);
    expect(await revisionStatus(id, first)).toBe("BUILDING");
    const second = (await client.patch(deploymentPath(id), { source_revision_config: { repo_ref: "b" } })).body.latest_revision_id;
    expect(await revisionStatus(id, first)).toBe("INTERRUPTED");
    expect(await revisionStatus(id, second)).toBe("CREATING");
    await client.advance(STEP * 10);
    expect(await revisionStatus(id, first)).toBe("INTERRUPTED");
    expect(await revisionStatus(id, second)).toBe("DEPLOYED");
    // A newer revision does not interrupt a DEPLOYED one.
    const third = (await client.patch(deploymentPath(id), { secrets: [] })).body.latest_revision_id;
    expect(await revisionStatus(id, second)).toBe("DEPLOYED");
    expect((await client.ok(deploymentPath(id))).active_revision_id).toBe(second);
    await client.advance(STEP * 10);
    expect((await client.ok(deploymentPath(id))).active_revision_id).toBe(third);
  });

  it("20 concurrent revision patches give 20 revisions: the newest DEPLOYED, the rest INTERRUPTED", async () => {
    const id = SEED_IDS.deployment_id;
    const count = await revisionCount(id);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => client.patch(deploymentPath(id), { source_revision_config: { repo_ref: `branch-${i}` } })),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    const created = new Set(answers.map((a) => a.body.latest_revision_id));
    expect(created.size).toBe(20);
    await client.advance(STEP * 10);
    const list = (await client.ok(`${deploymentPath(id)}/revisions?limit=100`)).resources;
    expect(list).toHaveLength(count + 20);
    const newest = list.slice(0, 20);
    expect(new Set(newest.map((r: any) => r.id))).toEqual(created);
    const statuses = await Promise.all(newest.map((r: any) => revisionStatus(id, r.id)));
    expect(statuses[0]).toBe("DEPLOYED");
    expect(statuses.slice(1)).toEqual(Array(19).fill("INTERRUPTED"));
    const d = await client.ok(deploymentPath(id));
    expect(d.latest_revision_id).toBe(newest[0].id);
    expect(d.active_revision_id).toBe(newest[0].id);
    // created_at strictly decreasing down the list.
    for (let i = 1; i < list.length; i++) expect(list[i - 1].created_at > list[i].created_at).toBe(true);
  });

  it("a deployment AWAITING_DATABASE becomes READY when its revision is DEPLOYED", async () => {
    const waiting = (await client.ok("/v2/deployments?status=AWAITING_DATABASE&limit=100")).resources;
    expect(waiting.length).toBeGreaterThan(0);
    const target = waiting[0];
    await client.advance(STEP * 10);
    const after = await client.ok(deploymentPath(target.id));
    expect(after.status).toBe("READY");
    expect(after.active_revision_id).toBe(after.latest_revision_id);
  });
});

describe("lists follow every change (their answers are cached per state)", () => {
  it("a patch and each lifecycle step show in the deployment list at once", async () => {
    const listed = async () => (await client.ok("/v2/deployments?limit=1")).resources[0];
    const before = await listed();
    expect(before.id).toBe(SEED_IDS.deployment_id);
    const patched = (await client.patch(deploymentPath(before.id), { source_revision_config: { repo_ref: "listed" } })).body;
    const afterPatch = await listed();
    expect(afterPatch.latest_revision_id).toBe(patched.latest_revision_id);
    expect(afterPatch.source_revision_config.repo_ref).toBe("listed");
    expect(afterPatch.active_revision_id).toBe(before.active_revision_id);
    await client.advance(STEP * 10);
    expect((await listed()).active_revision_id).toBe(patched.latest_revision_id);
    // The same query with a tenant is answered for that tenant, not from the other answer.
    const other = await client.ok("/v2/deployments?limit=1", { "x-tenant-id": SEED_IDS.other_tenant_id });
    expect(other.resources[0].tenant_id).toBe(SEED_IDS.other_tenant_id);
    await client.request("POST", "/_simulator/reset");
    expect(await listed()).toEqual(before);
  });
});

describe("POST /_simulator/fail-next", () => {
  const expectedPath: Record<string, string[]> = {
    CREATE_FAILED: ["CREATING", "CREATE_FAILED"],
    BUILD_FAILED: ["CREATING", "QUEUED", "AWAITING_BUILD", "BUILDING", "BUILD_FAILED"],
    DEPLOY_FAILED: ["CREATING", "QUEUED", "AWAITING_BUILD", "BUILDING", "AWAITING_DEPLOY", "DEPLOYING", "DEPLOY_FAILED"],
  };
  for (const [failure, path] of Object.entries(expectedPath)) {
    it(`the next revision ends ${failure} (${path.join(" -> ")}), and only the next one`, async () => {
      const id = SEED_IDS.deployment_id;
      const before = await client.ok(deploymentPath(id));
      const set = await client.request("POST", "/_simulator/fail-next", { deployment_id: id, status: failure });
      expect(set.status).toBe(200);
      const revisionId = (await client.patch(deploymentPath(id), { source_revision_config: { repo_ref: "broken" } })).body.latest_revision_id;
      const seen = [await revisionStatus(id, revisionId)];
      for (let i = 0; i < 8; i++) {
        await client.advance(STEP);
        const s = await revisionStatus(id, revisionId);
        if (s !== seen.at(-1)) seen.push(s);
      }
      expect(seen).toEqual(path);
      expect((await client.ok(deploymentPath(id))).active_revision_id).toBe(before.active_revision_id);
      const next = (await client.patch(deploymentPath(id), { source_revision_config: { repo_ref: "fixed" } })).body.latest_revision_id;
      await client.advance(STEP * 10);
      expect(await revisionStatus(id, next)).toBe("DEPLOYED");
    });
  }

  it("rejects an unknown status with 422 naming it, and an unknown deployment with 404", async () => {
    const bad = await client.request("POST", "/_simulator/fail-next", { deployment_id: SEED_IDS.deployment_id, status: "DEPLOYED" });
    expect(bad.status).toBe(422);
    expect(bad.contentType).toMatch(/^application\/problem\+json/);
    expect(bad.body.errors).toEqual([expect.objectContaining({ pointer: "/status" })]);
    const missing = await client.request("POST", "/_simulator/fail-next", { status: "BUILD_FAILED" });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual([expect.objectContaining({ pointer: "/deployment_id" })]);
    const unknown = await client.request("POST", "/_simulator/fail-next", {
      deployment_id: "00000000-0000-4000-8000-000000000000",
      status: "BUILD_FAILED",
    });
    expect(unknown.status).toBe(404);
    const advance = await client.request("POST", "/_simulator/advance", { seconds: -1 });
    expect(advance.status).toBe(422);
  });
});

describe("real time", () => {
  it("moves revisions too (tiny step)", async () => {
    const fast = await startTestSimulator({ stepSeconds: 0.01 });
    try {
      const id = SEED_IDS.deployment_id;
      const revisionId = (await fast.client.patch(deploymentPath(id), { secrets: [] })).body.latest_revision_id;
      // Real time alone (no advance) carries it through: asked again until it is there.
      await expect.poll(async () => (await fast.client.ok(`${deploymentPath(id)}/revisions/${revisionId}`)).status).toBe("DEPLOYED");
    } finally {
      await fast.simulator.close();
    }
  });
});
