// Regression tests for what no earlier test named (issue: robust on what no test names): caches
// bounded by bytes, simulated time bounded as a whole, a clock earlier than the seed, identifiers
// compared the way their type defines.
import { afterEach, describe, expect, it, vi } from "vitest";
import { BoundedCache, sizeOfText } from "../../src/simulator/core/bounded-cache.js";
import { LIST_PAGE_BOUNDS, JsonCache } from "../../src/simulator/core/json-cache.js";
import { seedState } from "../../src/simulator/core/seed.js";
import { Store } from "../../src/simulator/core/store/index.js";
import { REQUEST_BOUNDS } from "../../src/gate/bounds.js";
import { LATEST_SIMULATED_TIME } from "../../src/simulator/core/clock.js";
import { MAX_ADVANCE_SECONDS } from "../../src/simulator/core/control.js";
import { MAX_REVISION_HISTORY_BYTES, PROGRESSION } from "../../src/simulator/core/lifecycle.js";
import { createSimulator, SEED_IDS, type Simulator } from "../../src/simulator/core/index.js";
import { API_KEY, Client } from "./support.js";

const deploymentPath = `/v2/deployments/${SEED_IDS.deployment_id}`;
const clientOf = (sim: Simulator) => new Client("https://sim.example.test", { "x-api-key": API_KEY }, sim.fetch);
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe("caches are bounded by bytes", () => {
  it("evicts the least recently used entry when the bytes or the entries would pass their bound", () => {
    const cache = new BoundedCache<string, string>({ maxBytes: 100, maxEntries: 3 }, sizeOfText);
    cache.set("a", "x".repeat(20)); // 40 bytes
    cache.set("b", "x".repeat(20));
    cache.get("a"); // a is now the most recently used
    cache.set("c", "x".repeat(20)); // 120 bytes: b goes
    expect([cache.get("a") !== undefined, cache.get("b") !== undefined, cache.get("c") !== undefined]).toEqual([true, false, true]);
    expect(cache.bytes).toBe(80);
    cache.set("d", "x");
    cache.set("e", "x"); // four entries: the least recently used (a) goes
    expect(cache.size).toBe(3);
    expect(cache.get("a")).toBeUndefined();
    cache.set("huge", "x".repeat(51)); // larger than the whole budget: not kept, nothing evicted for it
    expect(cache.get("huge")).toBeUndefined();
    expect(cache.size).toBe(3);
  });

  it("keeps the list answers within their byte bound after large valid values and many distinct queries", () => {
    const store = new Store(seedState(30, Date.parse("2026-02-01T00:00:00Z")), 2000, () => Date.parse("2026-02-01T00:00:00Z"));
    const render = new JsonCache(store);
    const large = "v".repeat(REQUEST_BOUNDS.maxStringLength - 1);
    // Three deployments with about 900 KB of secrets each, the most one valid PATCH can carry.
    for (const record of store.listDeployments(undefined, {}, 0, 3).items) {
      const secrets = Array.from({ length: 14 }, (_, i) => ({ name: `SECRET_${i}`, value: large }));
      store.apply(store.planDeploymentPatch(record, { secrets }).changes);
    }
    let pageBytes = 0;
    for (let i = 0; i < 80; i++) {
      const page = render.deploymentPageJson(`query-${i}`, () => {
        const items = store.listDeployments(undefined, {}, 0, 3 + (i % 20)).items;
        return `{"resources":[${items.map((r) => render.deploymentJson(r)).join(",")}],"offset":0}`;
      });
      pageBytes += page.byteLength;
    }
    // The answers built were far larger than the bound: the cache kept only what fits.
    expect(pageBytes).toBeGreaterThan(10 * LIST_PAGE_BOUNDS.maxBytes);
    expect(render.pages.bytes).toBeLessThanOrEqual(LIST_PAGE_BOUNDS.maxBytes);
    expect(render.pages.size).toBeLessThanOrEqual(LIST_PAGE_BOUNDS.maxEntries);
  });
});

describe("revision history is bounded by bytes", () => {
  it("large valid revision configurations patched in a loop keep at most MAX_REVISION_HISTORY_BYTES of history, never the active revision", async () => {
    const sim = createSimulator({ stepSeconds: 3600 });
    const client = clientOf(sim);
    const { active_revision_id } = await client.ok(deploymentPath);
    const big = (c: string) => c.repeat(REQUEST_BOUNDS.maxStringLength - 100);
    // The seeded deployment is scm_host: its revisions take repo_ref and graph_config_path (src/shared/source-rules.ts).
    const config = { repo_ref: big("r"), graph_config_path: big("g") };
    for (let i = 0; i < 48; i++) expect((await client.patch(deploymentPath, { source_revision_config: config })).status).toBe(200);
    const kept = (await client.ok(`${deploymentPath}/revisions?limit=100`)).resources;
    const bytes = kept.reduce((sum: number, r: unknown) => sum + JSON.stringify(r).length, 0);
    // Each revision holds about 125 KB: 48 of them (6 MB) did not all stay.
    expect(kept.length).toBeLessThan(48);
    expect(bytes).toBeLessThanOrEqual(MAX_REVISION_HISTORY_BYTES + 300_000);
    expect(kept.map((r: { id: string }) => r.id)).toContain(active_revision_id);
  });
});

describe("simulated time is bounded as a whole", () => {
  it("refuses the advance that would pass the latest date with a 422 naming seconds; every answer after it is still valid", async () => {
    const sim = createSimulator({ stepSeconds: 1 });
    const client = clientOf(sim);
    let refused: Awaited<ReturnType<Client["request"]>> | undefined;
    for (let i = 0; i < 2000 && !refused; i++) {
      const answer = await client.request("POST", "/_simulator/advance", { seconds: MAX_ADVANCE_SECONDS });
      if (answer.status !== 200) refused = answer;
    }
    expect(refused?.status).toBe(422);
    expect(refused?.body.errors[0]).toMatchObject({ pointer: "/seconds", code: "maximum" });
    expect(refused?.body.errors[0].detail).toContain(LATEST_SIMULATED_TIME);
    const status = await client.ok("/_simulator");
    expect(status.now).toMatch(ISO);
    expect(Date.parse(status.now)).toBeLessThanOrEqual(Date.parse(LATEST_SIMULATED_TIME));
    // What is left can still be advanced, up to the limit and not past it.
    const room = Math.floor((Date.parse(LATEST_SIMULATED_TIME) - Date.parse(status.now)) / 1000);
    expect((await client.request("POST", "/_simulator/advance", { seconds: room })).status).toBe(200);
    expect((await client.request("POST", "/_simulator/advance", { seconds: 1 })).status).toBe(422);
    const patched = await client.patch(deploymentPath, { secrets: [] });
    expect(patched.status).toBe(200);
    const revision = await client.ok(`${deploymentPath}/revisions/${patched.body.latest_revision_id}`);
    expect(revision.created_at).toMatch(ISO);
    expect((await client.ok("/_simulator")).now).toMatch(ISO);
  });

  it("a clock past the latest date reads as the latest date", async () => {
    const sim = createSimulator({ now: () => Date.parse("+100000-01-01T00:00:00Z") });
    const client = clientOf(sim);
    expect((await client.ok("/_simulator")).now).toBe(LATEST_SIMULATED_TIME);
    expect((await client.patch(deploymentPath, { secrets: [] })).status).toBe(200);
  });
});

describe("a clock earlier than the seed", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("now: () => 0: new revisions are not stamped after the simulated time, and advance moves them to DEPLOYED", async () => {
    const sim = createSimulator({ stepSeconds: 1, now: () => 0 });
    const client = clientOf(sim);
    const seedNow = Date.parse((await client.ok("/_simulator")).now);
    const newest = await client.ok(deploymentPath);
    expect(seedNow).toBeGreaterThanOrEqual(Date.parse(newest.created_at));
    const id = (await client.patch(deploymentPath, { secrets: [] })).body.latest_revision_id;
    const created = await client.ok(`${deploymentPath}/revisions/${id}`);
    expect(Date.parse(created.created_at)).toBeLessThanOrEqual(Date.parse((await client.ok("/_simulator")).now) + 1);
    const seen = [created.status];
    for (let i = 1; i < PROGRESSION.length; i++) {
      await client.advance(1);
      seen.push((await client.ok(`${deploymentPath}/revisions/${id}`)).status);
    }
    expect(seen).toEqual(PROGRESSION);
  });

  it("fake timers set in 2025 drive a new revision to DEPLOYED", async () => {
    vi.useFakeTimers({ now: Date.parse("2025-03-01T00:00:00Z") });
    const sim = createSimulator({ stepSeconds: 5 });
    const client = clientOf(sim);
    const id = (await client.patch(deploymentPath, { secrets: [] })).body.latest_revision_id;
    expect((await client.ok(`${deploymentPath}/revisions/${id}`)).status).toBe("CREATING");
    vi.advanceTimersByTime(5_000 * PROGRESSION.length);
    const done = await client.ok(`${deploymentPath}/revisions/${id}`);
    expect(done.status).toBe("DEPLOYED");
    expect(Date.parse(done.updated_at)).toBeLessThanOrEqual(Date.parse((await client.ok("/_simulator")).now));
  });
});

describe("identifiers are compared the way their type defines", () => {
  it("a UUID in upper case (path ids, id filters, X-Tenant-Id, fail-next) names the same resource", async () => {
    const sim = createSimulator();
    const client = clientOf(sim);
    const upper = SEED_IDS.deployment_id.toUpperCase();
    const deployment = await client.ok(`/v2/deployments/${upper}`);
    expect(deployment.id).toBe(SEED_IDS.deployment_id);
    const revision = await client.ok(`/v2/deployments/${upper}/revisions/${SEED_IDS.revision_id.toUpperCase()}`);
    expect(revision.id).toBe(SEED_IDS.revision_id);
    const listed = await client.ok(`/v2/deployments?deployment_ids=${upper}`);
    expect(listed.resources.map((d: { id: string }) => d.id)).toEqual([SEED_IDS.deployment_id]);
    const tenant = SEED_IDS.tenant_id.toUpperCase();
    expect((await client.get(`/v2/deployments/${SEED_IDS.deployment_id}`, { "x-tenant-id": tenant })).status).toBe(200);
    expect((await client.get(`/v2/deployments/${SEED_IDS.other_tenant_deployment_id}`, { "x-tenant-id": tenant })).status).toBe(404);
    const tenantList = await client.ok("/v2/deployments?limit=100", { "x-tenant-id": tenant });
    expect(tenantList.resources.length).toBeGreaterThan(0);
    expect(new Set(tenantList.resources.map((d: { tenant_id: string }) => d.tenant_id))).toEqual(new Set([SEED_IDS.tenant_id]));
    expect((await client.patch(`/v2/deployments/${upper}/revisions`, {})).status).toBe(405);
    expect((await client.get(`/v2/listeners`)).status).toBe(200);
    await sim.failNext(upper, "BUILD_FAILED");
    const id = (await client.patch(`/v2/deployments/${upper}`, { secrets: [] })).body.latest_revision_id;
    await sim.advance(60);
    expect((await client.ok(`${deploymentPath}/revisions/${id}`)).status).toBe("BUILD_FAILED");
  });
});
