// rollbackDeployment against the simulator: which revision it goes back to, the patch that deploys
// exactly what that revision ran, and the cases where nothing may be patched.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PATCHABLE_CONFIG_FIELDS } from "../../src/client/rollback.js";
import {
  ApiError,
  createDeploymentsClient,
  type Deployment,
  deployRevision,
  type DeploymentsClient,
  NoRollbackTargetError,
  paginate,
  type Revision,
  type RevisionStatus,
  rollbackDeployment,
  rollbackPatch,
  unwrap,
  waitForRevision,
} from "../../src/index.js";
import { type RunningSimulator, SEED_IDS, startSimulator } from "../../src/simulator/node/index.js";
import { ROOT } from "../support/document.js";

let simulator: RunningSimulator;
let client: DeploymentsClient;
/** Seeded deployments by what a test needs, each used by one test only (read before any test changes one). */
let roles: { withEarlier: Record<string, string[]>; withoutEarlier: Record<string, string[]>; noActive: string[] };

const getDeployment = async (id: string) => unwrap(await client.GET("/v2/deployments/{deployment_id}", { params: { path: { deployment_id: id } } }));
const getRevision = async (id: string, revisionId: string) =>
  unwrap(await client.GET("/v2/deployments/{deployment_id}/revisions/{revision_id}", { params: { path: { deployment_id: id, revision_id: revisionId } } }));

/** The newest DEPLOYED revision older than the active one, read independently of the client's own walk. */
async function previousDeployed(id: string): Promise<Revision | undefined> {
  const d = await getDeployment(id);
  const list: Revision[] = [];
  for await (const r of paginate(client, "/v2/deployments/{deployment_id}/revisions", { path: { deployment_id: id } })) list.push(r);
  const at = list.findIndex((r) => r.id === d.active_revision_id);
  return at === -1 ? undefined : list.slice(at + 1).find((r) => r.status === "DEPLOYED");
}

beforeAll(async () => {
  simulator = await startSimulator({ port: 0, stepSeconds: 0.05, quiet: true, seedDeployments: 60 });
  client = createDeploymentsClient({ baseUrl: simulator.url, apiKey: "test-key", tenantId: SEED_IDS.tenant_id });
  // Seeded revisions still in progress end first, so that no active revision changes under a test.
  await fetch(`${simulator.url}/_simulator/advance`, { method: "POST", headers: { "Content-Type": "application/json" }, body: '{"seconds": 3600}' });
  roles = { withEarlier: {}, withoutEarlier: {}, noActive: [] };
  for await (const d of paginate(client, "/v2/deployments")) {
    if (d.active_revision_id === null) {
      roles.noActive.push(d.id);
      continue;
    }
    const group = (await previousDeployed(d.id)) ? roles.withEarlier : roles.withoutEarlier;
    group[d.source] = [...(group[d.source] ?? []), d.id];
  }
});
afterAll(async () => {
  await simulator?.close();
});

const used = new Set<string>();
/** The first deployment of these lists that no other test took. */
function take(what: string, ...lists: (string[] | undefined)[]): string {
  const id = lists.flatMap((list) => list ?? []).find((candidate) => !used.has(candidate));
  if (!id) throw new Error(`the seed has no more ${what}`);
  used.add(id);
  return id;
}
const anyWithActive = () => [...Object.values(roles.withoutEarlier), ...Object.values(roles.withEarlier)];

describe("rollbackDeployment against the simulator", () => {
  it("without toRevisionId: deploys the commit of the newest DEPLOYED revision before the active one, which becomes active", async () => {
    const d = { id: take("scm_host deployments with an earlier DEPLOYED revision", roles.withEarlier.scm_host) };
    const expected = (await previousDeployed(d.id))!;
    const seen: RevisionStatus[] = [];
    const { deployment, revision, target } = await rollbackDeployment(client, d.id, { intervalMs: 20, onStatus: (s) => seen.push(s) });
    expect(target.id).toBe(expected.id);
    expect(revision.status).toBe("DEPLOYED");
    expect(seen.at(-1)).toBe("DEPLOYED");
    expect(deployment.latest_revision_id).toBe(revision.id);
    expect(revision.source_revision_config).toEqual({ ...expected.source_revision_config, repo_ref: expected.source_revision_config.repo_commit_sha });
    expect((await getDeployment(d.id)).active_revision_id).toBe(revision.id);
  });

  it("toRevisionId of an image deployment: deploys that revision's image again", async () => {
    const d = { id: take("internal_docker deployments with an earlier DEPLOYED revision", roles.withEarlier.internal_docker) };
    const earlier = (await previousDeployed(d.id))!;
    const { revision, target } = await rollbackDeployment(client, d.id, { toRevisionId: earlier.id, intervalMs: 20, throwOnFailure: true });
    expect(target.id).toBe(earlier.id);
    expect(revision.source_revision_config.image_uri).toBe(earlier.source_revision_config.image_uri);
    expect((await getDeployment(d.id)).source_revision_config.image_uri).toBe(earlier.source_revision_config.image_uri);
  });

  it("pages through the revisions: the target is found past the first page of 100", async () => {
    const id = take("scm_host deployments", roles.withoutEarlier.scm_host, roles.withEarlier.scm_host);
    const patch = (ref: string) =>
      client.PATCH("/v2/deployments/{deployment_id}", { params: { path: { deployment_id: id } }, body: { source_revision_config: { repo_ref: ref } } });
    const { revision: target } = await deployRevision(client, id, { source_revision_config: { repo_ref: "target" } }, { intervalMs: 20 });
    const { revision: active } = await deployRevision(client, id, { source_revision_config: { repo_ref: "active" } }, { intervalMs: 20 });
    expect([target.status, active.status]).toEqual(["DEPLOYED", "DEPLOYED"]);
    // 100 newer revisions that never become active: each interrupts the one before, the last fails.
    for (let i = 0; i < 99; i++) unwrap(await patch(`newer-${i}`));
    await fetch(`${simulator.url}/_simulator/fail-next`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ deployment_id: id, status: "CREATE_FAILED" }),
    });
    const last = unwrap(await patch("newer-last"));
    await waitForRevision(client, id, last.latest_revision_id!, { intervalMs: 20 });
    const firstPage = unwrap(await client.GET("/v2/deployments/{deployment_id}/revisions", { params: { path: { deployment_id: id }, query: { limit: 100 } } }));
    expect(firstPage.resources.map((r) => r.id)).not.toContain(active.id);
    const { target: found } = await rollbackDeployment(client, id, { intervalMs: 20 });
    expect(found.id).toBe(target.id);
  });

  it("an unknown toRevisionId is an ApiError 404, and nothing is patched", async () => {
    const d = { id: take("deployments with an active revision", ...anyWithActive()) };
    const before = await getDeployment(d.id);
    const error = await rollbackDeployment(client, d.id, { toRevisionId: crypto.randomUUID() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(404);
    expect((await getDeployment(d.id)).latest_revision_id).toBe(before.latest_revision_id);
  });

  it("NoRollbackTargetError when no DEPLOYED revision is older than the active one, and nothing is patched", async () => {
    const d = await getDeployment(take("deployments without an earlier DEPLOYED revision", ...Object.values(roles.withoutEarlier)));
    const error = await rollbackDeployment(client, d.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoRollbackTargetError);
    expect(error).toMatchObject({ deploymentId: d.id, activeRevisionId: d.active_revision_id });
    expect((await getDeployment(d.id)).latest_revision_id).toBe(d.latest_revision_id);
  });

  it("NoRollbackTargetError when the deployment has no active revision", async () => {
    const d = { id: take("deployments without an active revision", roles.noActive) };
    const error = await rollbackDeployment(client, d.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NoRollbackTargetError);
    expect((error as NoRollbackTargetError).activeRevisionId).toBeNull();
  });

  it("a bad wait option is a TypeError before anything is read or patched", async () => {
    const d = await getDeployment(take("deployments with an active revision", ...anyWithActive()));
    await expect(rollbackDeployment(client, d.id, { timeoutMs: 0 })).rejects.toThrow(TypeError);
    expect((await getDeployment(d.id)).latest_revision_id).toBe(d.latest_revision_id);
  });

  it("every option is checked before the PATCH: a bad one is a TypeError naming it, and nothing is patched", async () => {
    const d = await getDeployment(take("deployments with an active revision", ...anyWithActive()));
    const bad: [unknown, RegExp][] = [
      [{ toRevisionId: 5 }, /toRevisionId must be/],
      [{ toRevisionId: null }, /toRevisionId must be/],
      [{ toRevisionId: " " }, /toRevisionId must be/],
      [{ timeoutMs: -1 }, /timeoutMs must be/],
      [{ intervalMs: Number.NaN }, /intervalMs must be/],
      [{ onStatus: 5 }, /onStatus must be a function/],
      [{ signal: {} }, /signal must be an AbortSignal/],
      [{ throwOnFailure: "yes" }, /throwOnFailure must be true or false/],
      ["not options", /options must be an object/],
    ];
    for (const [options, message] of bad) {
      await expect(rollbackDeployment(client, d.id, options as never), JSON.stringify(options)).rejects.toThrow(message);
      await expect(rollbackDeployment(client, d.id, options as never)).rejects.toBeInstanceOf(TypeError);
    }
    // A signal aborted before the start: nothing is read or patched either.
    await expect(rollbackDeployment(client, d.id, { signal: AbortSignal.abort() })).rejects.toThrow(/abort/i);
    expect((await getDeployment(d.id)).latest_revision_id).toBe(d.latest_revision_id);
  });

  it("the simulator resolves a full commit sha as a git host does, and any other ref to a fresh commit", async () => {
    const d = { id: take("scm_host deployments", roles.withoutEarlier.scm_host, roles.withEarlier.scm_host) };
    const sha = "0123456789abcdef0123456789ABCDEF01234567";
    const pinned = unwrap(
      await client.PATCH("/v2/deployments/{deployment_id}", { params: { path: { deployment_id: d.id } }, body: { source_revision_config: { repo_ref: sha } } }),
    );
    expect((await getRevision(d.id, pinned.latest_revision_id!)).source_revision_config.repo_commit_sha).toBe(sha.toLowerCase());
    const branch = unwrap(
      await client.PATCH("/v2/deployments/{deployment_id}", {
        params: { path: { deployment_id: d.id } },
        body: { source_revision_config: { repo_ref: sha.slice(0, 12) } },
      }),
    );
    expect((await getRevision(d.id, branch.latest_revision_id!)).source_revision_config.repo_commit_sha).not.toBe(sha.slice(0, 12));
  });
});

describe("rollbackPatch", () => {
  const deployment = { source: "scm_host" } as Deployment;
  const revision = (source: Revision["source"], config: Revision["source_revision_config"]) => ({ source, source_revision_config: config }) as Revision;

  it("a repository revision without a reported commit keeps its ref; null fields are not sent", () => {
    expect(
      rollbackPatch(deployment, revision("scm_host", { repo_ref: "main", graph_config_path: "agent.json", repo_commit_sha: null, image_uri: null })),
    ).toEqual({
      source_revision_config: { repo_ref: "main", graph_config_path: "agent.json" },
    });
  });

  it("sends only the fields a patch takes: a field a newer service reports is left out (the patch would be refused)", () => {
    const reported = { repo_ref: "main", repo_commit_sha: "9f53a0206d6d662278ac7c8257a7bc91eb0870b1", repo_commit_message: "fix", build_id: 7 };
    expect(rollbackPatch(deployment, revision("scm_host", reported as never))).toEqual({
      source_revision_config: { repo_ref: "9f53a0206d6d662278ac7c8257a7bc91eb0870b1" },
    });
  });

  it("PATCHABLE_CONFIG_FIELDS are the document's source_revision_config fields but repo_commit_sha", async () => {
    const document = JSON.parse(await readFile(join(ROOT, "generated/openapi.json"), "utf8"));
    const fields = Object.keys(document.components.schemas.SourceRevisionConfig.properties).filter((f) => f !== "repo_commit_sha");
    expect([...PATCHABLE_CONFIG_FIELDS].sort()).toEqual(fields.sort());
  });

  it("a revision built from another source than the deployment's sets revision_source, except external_docker", () => {
    expect(rollbackPatch(deployment, revision("internal_docker", { image_uri: "r/a:1" }))).toEqual({
      source_revision_config: { image_uri: "r/a:1" },
      revision_source: "internal_docker",
    });
    expect(rollbackPatch(deployment, revision("external_docker", { image_uri: "r/a:1" }))).toEqual({ source_revision_config: { image_uri: "r/a:1" } });
  });
});
