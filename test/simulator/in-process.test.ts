// createSimulator without a port: every operation family through `sim.fetch` (and through the typed
// client on it), the control methods, a clock of the test's own and fake timers driving the
// lifecycle, and the persistence contract: nothing is visible before it is saved, and a write that
// cannot be saved answers 507/500 problem+json and changes nothing.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createDeploymentsClient, unwrap } from "../../src/index.js";
import { problemDetails } from "../../src/shared/problems.js";
import { StorageError, type Persistence, type StateChange } from "../../src/simulator/core/changes.js";
import { createSimulator, SEED_IDS, SimulatorControlError, type Simulator } from "../../src/simulator/node/index.js";
import type { State } from "../../src/simulator/core/model.js";
import { MAX_REVISIONS_KEPT, PROGRESSION } from "../../src/simulator/core/lifecycle.js";
import { createOpenApiValidator, describeErrors } from "../support/openapi-validator.js";
import { deref, document, operationById } from "../support/document.js";
import { API_KEY, Client } from "./support.js";

const BASE = "https://api.example.test";
const deploymentPath = `/v2/deployments/${SEED_IDS.deployment_id}`;
const clientOf = (sim: Simulator, headers: Record<string, string> = { "x-api-key": API_KEY }) => new Client(BASE, headers, sim.fetch);
const validator = createOpenApiValidator(document);

function expectShape(operationId: string, status: number, body: unknown): void {
  const response = deref(operationById(operationId).op.responses[String(status)]);
  const media = Object.values<any>(response.content)[0];
  const check = validator.validatorFor(media.schema, `in-process ${operationId} ${status}`);
  expect(check(body), `${operationId} ${status}: ${describeErrors(check.errors)}`).toBe(true);
}

describe("sim.fetch answers every operation family in-process", () => {
  const sim = createSimulator({ stepSeconds: 3600 });
  const client = clientOf(sim);

  it("deployments: list, get (with source_config.deployment_type), patch creating a revision", async () => {
    const page = await client.ok("/v2/deployments?limit=3");
    expectShape("listDeployments", 200, page);
    expect(page.resources[0].id).toBe(SEED_IDS.deployment_id);
    for (const d of page.resources) expect(["dev_free", "dev", "prod"]).toContain(d.source_config.deployment_type);
    const before = await client.ok(deploymentPath);
    expectShape("getDeployment", 200, before);
    const patched = await client.patch(deploymentPath, { source_revision_config: { repo_ref: "in-process" } });
    expect(patched.status).toBe(200);
    expectShape("patchDeployment", 200, patched.body);
    expect(patched.body.latest_revision_id).not.toBe(before.latest_revision_id);
    expect(patched.body.source_config.deployment_type).toBe(before.source_config.deployment_type);
    expect((await client.ok(deploymentPath)).latest_revision_id).toBe(patched.body.latest_revision_id);
  });

  it("revisions: the list holds whole revisions, the same as GET of each", async () => {
    const list = await client.ok(`${deploymentPath}/revisions?limit=100`);
    expectShape("listRevisions", 200, list);
    expect(list.resources.length).toBeGreaterThan(1);
    for (const r of list.resources) expect(r).toEqual(await client.ok(`${deploymentPath}/revisions/${r.id}`));
  });

  it("listeners, providers, connections and repositories", async () => {
    const listeners = await client.ok("/v2/listeners");
    expectShape("listListeners", 200, listeners);
    const patched = await client.patch(`/v2/listeners/${SEED_IDS.listener_id}`, { version: "2.0.0" });
    expect(patched.status).toBe(200);
    expect(patched.body.version).toBe("2.0.0");
    expectShape("listOAuthProviders", 200, await client.ok("/v2/auth/providers"));
    expectShape("getOAuthProvider", 200, await client.ok(`/v2/auth/providers/${SEED_IDS.provider_id}`));
    expectShape("listAgentConnections", 200, await client.ok(`/v2/auth/agents/${SEED_IDS.agent_id}/connections`));
    expectShape("listScmRepositories", 200, await client.ok(`/v1/integrations/scm/${SEED_IDS.scm_integration_id}/repos`));
    expectShape("listForgeScmRepositories", 200, await client.ok(`/v1/integrations/forge/scm/${SEED_IDS.forge_integration_id}/repos`));
  });

  it("problems: 401, 404, 405, 415, 400 and 422 with the document's types and field error codes", async () => {
    const anonymous = await clientOf(sim, {}).get(deploymentPath);
    expect(anonymous.status).toBe(401);
    expect(anonymous.contentType).toMatch(/^application\/problem\+json/);
    expect(anonymous.body.type).toBe(problemDetails("unauthorized", "").type);
    const missing = await client.get("/v2/deployments/00000000-0000-4000-8000-000000000000");
    expect(missing.body).toMatchObject({ status: 404, type: problemDetails("not-found", "").type });
    expect((await client.request("DELETE", deploymentPath)).status).toBe(405);
    const text = await client.request("PATCH", deploymentPath, "{}", { "content-type": "text/plain" });
    expect(text.body.type).toBe(problemDetails("unsupported-media-type", "").type);
    const malformed = await client.request("PATCH", deploymentPath, '{"secrets": [');
    expect(malformed.status).toBe(400);
    expect(malformed.body.type).toBe(problemDetails("malformed-json", "").type);
    const invalid = await client.get("/v2/deployments?limit=0&status=NOPE");
    expect(invalid.status).toBe(422);
    expect(invalid.body.type).toBe(problemDetails("validation", "").type);
    expect(invalid.body.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ parameter: "limit", code: "minimum" }),
        expect.objectContaining({ parameter: "status", code: "enum" }),
      ]),
    );
    const readOnly = await client.patch(deploymentPath, { name: "renamed", source_config: { deployment_type: "prod" } });
    expect(readOnly.status).toBe(422);
    for (const e of readOnly.body.errors) expect(e.code, JSON.stringify(e)).toMatch(/^(unknown_field|read_only)$/);
  });

  it("an empty or malformed X-Tenant-Id is a 422 naming X-Tenant-Id, never all tenants", async () => {
    for (const tenant of ["", "not-a-uuid"]) {
      const answer = await client.get("/v2/deployments", { "x-tenant-id": tenant });
      expect(answer.status, JSON.stringify(tenant)).toBe(422);
      expect(answer.body.errors).toEqual([expect.objectContaining({ parameter: "X-Tenant-Id", code: "format" })]);
    }
    const mine = await client.ok("/v2/deployments?limit=100", { "x-tenant-id": SEED_IDS.tenant_id });
    expect(mine.resources.every((d: any) => d.tenant_id === SEED_IDS.tenant_id)).toBe(true);
  });

  it("a body nested too deep or with a huge number is refused before validation, and nothing breaks later", async () => {
    const deep = `${'{"a":'.repeat(6000)}1${"}".repeat(6000)}`;
    const answer = await client.request("PATCH", deploymentPath, `{"source_config": {"resource_spec": ${deep}}}`);
    expect(answer.status).toBe(422);
    expect(answer.body.errors[0].code).toBe("too_deep");
    const infinite = await client.request("PATCH", deploymentPath, '{"source_config": {"resource_spec": {"cpu": 1e309}}}');
    expect(infinite.status).toBe(422);
    expect(infinite.body.errors[0]).toMatchObject({ pointer: "/source_config/resource_spec/cpu", code: "not_finite" });
    expect((await client.get("/v2/deployments")).status).toBe(200);
  });

  it("the typed client runs on sim.fetch", async () => {
    const typed = createDeploymentsClient({ baseUrl: BASE, apiKey: "k", fetch: sim.fetch });
    const d = unwrap(await typed.GET("/v2/deployments/{deployment_id}", { params: { path: { deployment_id: SEED_IDS.deployment_id } } }));
    expect(d.id).toBe(SEED_IDS.deployment_id);
  });

  it("an aborted signal rejects as fetch does: before sending, nothing changes; while a latency runs, at once", async () => {
    // sim.fetch ignored the signal: an aborted PATCH was made, and an abort during a latency waited it out.
    const still = createSimulator({ stepSeconds: 3600 });
    const slow = createSimulator({ latency: 5_000 });
    const headers = { "x-api-key": "k", "content-type": "application/json" };
    const body = JSON.stringify({ source_revision_config: { repo_ref: "aborted" } });
    const before = await (await still.fetch(`${BASE}${deploymentPath}`, { headers })).json();
    const aborted = await still.fetch(`${BASE}${deploymentPath}`, { method: "PATCH", headers, body, signal: AbortSignal.abort() }).catch((e: unknown) => e);
    expect((aborted as Error).name).toBe("AbortError");
    expect(await (await still.fetch(`${BASE}${deploymentPath}`, { headers })).json()).toEqual(before);
    const started = Date.now();
    const timedOut = await slow.fetch(`${BASE}/v2/listeners`, { headers, signal: AbortSignal.timeout(50) }).catch((e: unknown) => e);
    expect((timedOut as Error).name).toBe("TimeoutError");
    expect(Date.now() - started).toBeLessThan(2_000);
    await Promise.all([still.close(), slow.close()]);
  });
});

describe("control methods", () => {
  const STEP = 60;
  let sim: Simulator;
  beforeEach(() => {
    sim = createSimulator({ stepSeconds: STEP });
  });

  it("advance moves a new revision through the progression; failNext makes the next one fail; reset goes back to the seed", async () => {
    const client = clientOf(sim);
    const seeded = await client.ok(deploymentPath);
    const first = (await client.patch(deploymentPath, { secrets: [] })).body.latest_revision_id;
    await sim.advance(STEP * (PROGRESSION.length - 1));
    expect((await client.ok(`${deploymentPath}/revisions/${first}`)).status).toBe("DEPLOYED");
    await sim.failNext(SEED_IDS.deployment_id, "BUILD_FAILED");
    const second = (await client.patch(deploymentPath, { secrets: [] })).body.latest_revision_id;
    await sim.advance(STEP * 10);
    expect((await client.ok(`${deploymentPath}/revisions/${second}`)).status).toBe("BUILD_FAILED");
    const status = await sim.reset();
    expect(status.seed_ids).toEqual(SEED_IDS);
    expect(await client.ok(deploymentPath)).toEqual(seeded);
  });

  it("refuses bad arguments with a SimulatorControlError carrying the problem", async () => {
    for (const seconds of [-1, Number.NaN, Infinity, 1e13, 11 * 365 * 86_400]) {
      const error = await sim.advance(seconds).catch((e: unknown) => e);
      expect(error, String(seconds)).toBeInstanceOf(SimulatorControlError);
      expect((error as SimulatorControlError).status).toBe(422);
    }
    const unknown = await sim.failNext("00000000-0000-4000-8000-000000000000", "BUILD_FAILED").catch((e: unknown) => e);
    expect((unknown as SimulatorControlError).status).toBe(404);
    const wrong = await sim.failNext(SEED_IDS.deployment_id, "DEPLOYED" as never).catch((e: unknown) => e);
    expect((wrong as SimulatorControlError).status).toBe(422);
    expect((wrong as Error).message).toMatch(/\/status/);
    // Ten years is the most one call moves.
    await expect(sim.advance(10 * 365.25 * 86_400)).resolves.toMatchObject({ step_seconds: STEP });
  });

  it("the control API over sim.fetch takes JSON only and the API key when keys are configured", async () => {
    const locked = createSimulator({ apiKeys: ["right"] });
    const post = (headers: Record<string, string>, body = "{}") => locked.fetch(`${BASE}/_simulator/reset`, { method: "POST", headers, body });
    expect((await post({ "content-type": "text/plain", "x-api-key": "right" })).status).toBe(415);
    expect((await post({ "content-type": "application/json" })).status).toBe(401);
    expect((await post({ "content-type": "application/json", "x-api-key": "wrong" })).status).toBe(401);
    expect((await post({ "content-type": "application/json", "x-api-key": "right" })).status).toBe(200);
    const advance = await locked.fetch(`${BASE}/_simulator/advance`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": "right" },
      body: '{"seconds": 1e308}',
    });
    expect(advance.status).toBe(422);
  });

  it("rejects options that are not usable, naming them", () => {
    expect(() => createSimulator({ stepSeconds: -1 })).toThrow(/stepSeconds/);
    expect(() => createSimulator({ seedDeployments: Number.NaN })).toThrow(/seedDeployments/);
    expect(() => createSimulator({ apiKeys: [""] })).toThrow(/apiKeys/);
  });
});

describe("the clock", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("a clock of the test's own drives the lifecycle (the `now` option)", async () => {
    let now = Date.parse("2030-01-01T00:00:00Z");
    const sim = createSimulator({ stepSeconds: 10, now: () => now });
    const client = clientOf(sim);
    const revision = (await client.patch(deploymentPath, { secrets: [] })).body.latest_revision_id;
    const created = await client.ok(`${deploymentPath}/revisions/${revision}`);
    expect(created.created_at).toBe("2030-01-01T00:00:00.000Z");
    const seen = [created.status];
    for (let i = 1; i < PROGRESSION.length; i++) {
      now += 10_000;
      seen.push((await client.ok(`${deploymentPath}/revisions/${revision}`)).status);
    }
    expect(seen).toEqual(PROGRESSION);
    expect((await sim.status()).now).toBe(new Date(now).toISOString());
  });

  it("vi.useFakeTimers drives the default clock", async () => {
    vi.useFakeTimers({ now: Date.parse("2031-06-01T12:00:00Z") });
    const sim = createSimulator({ stepSeconds: 5 });
    const client = clientOf(sim);
    const revision = (await client.patch(deploymentPath, { secrets: [] })).body.latest_revision_id;
    expect((await client.ok(`${deploymentPath}/revisions/${revision}`)).status).toBe("CREATING");
    vi.advanceTimersByTime(5_000 * (PROGRESSION.length - 1));
    const done = await client.ok(`${deploymentPath}/revisions/${revision}`);
    expect(done.status).toBe("DEPLOYED");
    expect(done.updated_at).toBe(new Date(Date.parse("2031-06-01T12:00:00Z") + 5_000 * (PROGRESSION.length - 1)).toISOString());
  });
});

/** A Persistence in memory whose appends can be held back or made to fail. */
class MemoryPersistence implements Persistence {
  appended: StateChange[][] = [];
  failWith: StorageError | undefined;
  hold: Promise<void> | undefined;
  /** Called when an append starts waiting on `hold`: the write has reached the disk's door. */
  onHeld: (() => void) | undefined;
  closed = false;
  constructor(private saved?: State) {}
  async load() {
    return this.saved && structuredClone(this.saved);
  }
  async append(changes: StateChange[]) {
    if (this.hold) {
      this.onHeld?.();
      await this.hold;
    }
    if (this.failWith) throw this.failWith;
    // Saved as text, the way a journal would: later changes to live objects do not reach it.
    this.appended.push(JSON.parse(JSON.stringify(changes)));
  }
  attach() {}
  async close() {
    this.closed = true;
  }
}

describe("persistence (an adapter passed in)", () => {
  it("a fresh start saves the seed first; a saved state is loaded instead of the seed", async () => {
    const fresh = new MemoryPersistence();
    const sim = createSimulator({ persistence: fresh });
    expect(await sim.ready).toEqual({ restored: false });
    expect(fresh.appended).toHaveLength(1);
    expect(fresh.appended[0]![0]!.op).toBe("replace_state");
    const seeded = (fresh.appended[0]![0] as { state: State }).state;
    seeded.deployments.at(-1)!.deployment.name = "restored-name";
    const restored = createSimulator({ persistence: new MemoryPersistence(seeded) });
    expect(await restored.ready).toEqual({ restored: true });
    expect((await clientOf(restored).ok(deploymentPath)).name).toBe("restored-name");
    await restored.close();
  });

  it("a write is not visible before its append resolves, and is after", async () => {
    const persistence = new MemoryPersistence();
    const sim = createSimulator({ persistence, stepSeconds: 3600 });
    const client = clientOf(sim);
    const before = await client.ok(deploymentPath);
    let release!: () => void;
    persistence.hold = new Promise((resolve) => (release = resolve));
    const held = new Promise<void>((resolve) => (persistence.onHeld = resolve));
    const pending = client.patch(deploymentPath, { source_config: { custom_url: "https://held.example.com" } });
    // The write is planned and waits on the disk: only now is "not visible yet" a real check.
    await held;
    expect((await client.ok(deploymentPath)).source_config.custom_url).toBe(before.source_config.custom_url);
    release();
    expect((await pending).status).toBe(200);
    expect((await client.ok(deploymentPath)).source_config.custom_url).toBe("https://held.example.com");
    const saved = persistence.appended.at(-1)![0]!;
    expect(saved.op).toBe("put_deployment");
  });

  for (const [label, error, status, kind] of [
    ["a full disk", new StorageError("no space", "ENOSPC", 507), 507, "insufficient-storage"],
    ["an I/O error", new StorageError("I/O error", "EIO", 500), 500, "internal"],
  ] as const) {
    it(`${label}: every write answers ${status} problem+json and memory stays as it was`, async () => {
      const persistence = new MemoryPersistence();
      const sim = createSimulator({ persistence, stepSeconds: 3600 });
      const client = clientOf(sim);
      const deployment = await client.ok(deploymentPath);
      const revisions = await client.ok(`${deploymentPath}/revisions?limit=100`);
      const listeners = await client.ok("/v2/listeners");
      const clock = (await sim.status()).now;
      persistence.failWith = error;
      for (const answer of [
        await client.patch(deploymentPath, { source_revision_config: { repo_ref: "lost" }, source_config: { custom_url: "https://lost.example.com" } }),
        await client.patch(`/v2/listeners/${SEED_IDS.listener_id}`, { version: "9.9.9" }),
        await client.request("POST", "/_simulator/fail-next", { deployment_id: SEED_IDS.deployment_id, status: "BUILD_FAILED" }),
        await client.request("POST", "/_simulator/reset"),
        await client.request("POST", "/_simulator/advance", { seconds: 3600 * 24 }),
      ]) {
        expect(answer.status).toBe(status);
        expect(answer.contentType).toMatch(/^application\/problem\+json/);
        expect(answer.body.type).toBe(problemDetails(kind, "").type);
      }
      await expect(sim.advance(60)).rejects.toMatchObject({ status });
      expect(await client.ok(deploymentPath)).toEqual(deployment);
      expect(await client.ok(`${deploymentPath}/revisions?limit=100`)).toEqual(revisions);
      expect(await client.ok("/v2/listeners")).toEqual(listeners);
      expect(Date.parse((await sim.status()).now) - Date.parse(clock)).toBeLessThan(60_000);
      // Once storage works again, so does the simulator; the failed fail-next left nothing behind.
      persistence.failWith = undefined;
      const next = (await client.patch(deploymentPath, { secrets: [] })).body.latest_revision_id;
      await sim.advance(3600 * 10);
      expect((await client.ok(`${deploymentPath}/revisions/${next}`)).status).toBe("DEPLOYED");
      await sim.close();
      expect(persistence.closed).toBe(true);
    });
  }

  it("concurrent writes to one deployment each see the one before (none is lost)", async () => {
    const persistence = new MemoryPersistence();
    const sim = createSimulator({ persistence, stepSeconds: 3600 });
    const client = clientOf(sim);
    const count = (await client.ok(`${deploymentPath}/revisions?limit=100`)).resources.length;
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => client.patch(deploymentPath, { source_revision_config: { repo_ref: `r${i}` } })));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
    const list = (await client.ok(`${deploymentPath}/revisions?limit=100`)).resources;
    expect(list).toHaveLength(count + 10);
    expect(list.slice(1, 10).every((r: any) => r.status === "INTERRUPTED")).toBe(true);
  });
});

describe("seed ids are the document's example ids", () => {
  const examples = document.components.examples;
  it("so requests copied from the docs find the seeded resources", async () => {
    const firstPage = examples.DeploymentPageFirst.value.resources;
    // The seed's newest deployment is the scm_host example (test/simulator/examples-seed.test.ts checks every example id).
    expect(SEED_IDS.deployment_id).toBe(examples.DeploymentScmHost.value.id);
    expect(firstPage.map((d: { id: string }) => d.id)).toContain(SEED_IDS.deployment_id);
    expect(SEED_IDS.tenant_id).toBe(firstPage[0].tenant_id);
    expect(SEED_IDS.revision_id).toBe(examples.RevisionPageFirst.value.resources[0].id);
    expect(SEED_IDS.listener_id).toBe(examples.ListenerProdCluster.value.id);
    expect(SEED_IDS.scm_integration_id).toBe(examples.RepositoryListScm.value[0].host_integration_id);
    expect(SEED_IDS.forge_integration_id).toBe(examples.RepositoryListForge.value[0].host_integration_id);
    const client = clientOf(createSimulator());
    const d = await client.ok(deploymentPath);
    expect(d.latest_revision_id).toBe(SEED_IDS.revision_id);
    expect((await client.ok(`${deploymentPath}/revisions/${SEED_IDS.revision_id}`)).id).toBe(SEED_IDS.revision_id);
    expect((await client.patch(`/v2/listeners/${SEED_IDS.listener_id}`, { version: "1.0.0" })).status).toBe(200);
  });
});

describe("revisions kept per deployment", () => {
  it(`past ${MAX_REVISIONS_KEPT}, the oldest finished ones are dropped, never the active one`, async () => {
    const sim = createSimulator({ stepSeconds: 3600 });
    const client = clientOf(sim);
    const { active_revision_id } = await client.ok(deploymentPath);
    const seeded = (await client.ok(`${deploymentPath}/revisions?limit=100`)).resources.map((r: any) => r.id);
    const created: string[] = [];
    for (let i = 0; i < MAX_REVISIONS_KEPT; i++) created.push((await client.patch(deploymentPath, { secrets: [] })).body.latest_revision_id);
    const kept: string[] = [];
    for (let offset = 0; ; ) {
      const page = await client.ok(`${deploymentPath}/revisions?limit=100&offset=${offset}`);
      kept.push(...page.resources.map((r: any) => r.id));
      offset = page.offset;
      if (page.resources.length < 100) break;
    }
    expect(kept).toHaveLength(MAX_REVISIONS_KEPT);
    expect(kept).toContain(active_revision_id);
    expect(kept[0]).toBe(created.at(-1));
    // What was dropped: the oldest, and not the active one.
    const dropped = [...seeded, ...created].filter((id) => !kept.includes(id));
    expect(dropped).not.toContain(active_revision_id);
    expect(dropped).toContain(created[0]);
    expect((await client.get(`${deploymentPath}/revisions/${created[0]}`)).status).toBe(404);
  });
});
