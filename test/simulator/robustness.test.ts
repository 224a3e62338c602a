// Regression tests for what no earlier test named (issue: robust on what no test names): caches
// bounded by bytes, simulated time bounded as a whole, a clock earlier than the seed, identifiers
// compared the way their type defines.
import { describe, expect, it } from "vitest";
import { BoundedCache, sizeOfText } from "../../src/simulator/core/bounded-cache.js";
import { LIST_PAGE_BOUNDS, Renderer } from "../../src/simulator/core/render.js";
import { seedState } from "../../src/simulator/core/seed.js";
import { Store } from "../../src/simulator/core/store.js";
import { REQUEST_BOUNDS } from "../../src/local-server/bounds.js";

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
    const render = new Renderer(store);
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
