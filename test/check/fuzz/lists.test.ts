// Lists and tenants, generated: for random filters (drawn from the document's query parameters),
// page sizes and tenants, walking the pages of the simulator's deployment list (each next `offset`
// from the previous page) gives exactly the one-page answer, in the same order, with no repeats;
// every item matches the filters the document describes and belongs to the tenant asked for; and
// a deployment of another tenant answers 404 to GET and PATCH, and the PATCH changes nothing.
import fc from "fast-check";
import { expect, it } from "vitest";
import { createSimulator } from "../../../src/simulator/core/index.js";
import { SEED_IDS } from "../../../src/simulator/core/seed.js";
import { document } from "../../support/document.js";
import { budget, report, timeout } from "./budget.js";

const simulator = createSimulator();
const HEADERS = { "x-api-key": "lists" };

async function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const response = await simulator.fetch(`http://simulator${path}`, { headers: { ...HEADERS, ...headers } });
  return { status: response.status, body: await response.json() };
}

const DEPLOYMENT_STATUSES: string[] = document.components.schemas.DeploymentStatus.enum;
const filters = fc.record(
  {
    status: fc.constantFrom(...DEPLOYMENT_STATUSES),
    name_contains: fc.constantFrom("agent", "a", "support", "-1", "AGENT", "zzz", ""),
    image_version: fc.constantFrom("1.0.0", "1.1.1", "nope"),
    deployment_ids: fc.subarray([SEED_IDS.deployment_id, SEED_IDS.other_tenant_deployment_id, "3fa85f64-5717-4562-b3fc-2c963f66afa6"], { minLength: 1 }),
  },
  { requiredKeys: [] },
);
const tenants = fc.constantFrom(undefined, SEED_IDS.tenant_id, SEED_IDS.other_tenant_id, SEED_IDS.tenant_id.toUpperCase());

function query(filter: Record<string, unknown>, limit: number, offset: number): string {
  const parts = [`limit=${limit}`, `offset=${offset}`];
  for (const [name, value] of Object.entries(filter)) parts.push(`${name}=${encodeURIComponent(Array.isArray(value) ? value.join(",") : String(value))}`);
  return `/v2/deployments?${parts.join("&")}`;
}

it(
  "walking the pages gives the one-page list; every item matches the filters and the tenant",
  async () => {
    const started = Date.now();
    let cases = 0;
    await fc.assert(
      fc.asyncProperty(filters, tenants, fc.integer({ min: 1, max: 7 }), async (filter, tenant, limit) => {
        cases++;
        const headers: Record<string, string> = tenant ? { "x-tenant-id": tenant } : {};
        const whole = await get(query(filter, 100, 0), headers);
        expect(whole.status).toBe(200);
        const all: any[] = whole.body.resources;
        expect(whole.body.offset).toBe(all.length);
        const walked: any[] = [];
        for (let offset = 0, pages = 0; pages < 100; pages++) {
          const page = await get(query(filter, limit, offset), headers);
          expect(page.status).toBe(200);
          expect(page.body.resources.length).toBeLessThanOrEqual(limit);
          walked.push(...page.body.resources);
          expect(page.body.offset, "the next offset is the request's plus the items").toBe(offset + page.body.resources.length);
          offset = page.body.offset;
          if (page.body.resources.length < limit) break;
        }
        expect(walked.map((d) => d.id)).toEqual(all.map((d) => d.id));
        expect(new Set(all.map((d) => d.id)).size, "no deployment twice").toBe(all.length);
        const created = all.map((d) => d.created_at);
        expect(created, "newest first").toEqual([...created].sort().reverse());
        for (const d of all) {
          if (tenant) expect(d.tenant_id, "the tenant asked for").toBe(tenant.toLowerCase());
          if (filter.status) expect(d.status).toBe(filter.status);
          if (filter.name_contains !== undefined) expect(d.name.toLowerCase()).toContain(filter.name_contains.toLowerCase());
          if (filter.image_version) expect(d.image_version).toBe(filter.image_version);
          if (filter.deployment_ids) expect(filter.deployment_ids).toContain(d.id);
        }
      }),
      budget(150, 0.05),
    );
    report("lists", cases, started);
  },
  timeout(60_000, 0.05),
);

it("a deployment of another tenant answers 404 to GET and PATCH, and the PATCH changes nothing", async () => {
  const other = SEED_IDS.other_tenant_deployment_id;
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(SEED_IDS.tenant_id, SEED_IDS.tenant_id.toUpperCase()), fc.constantFrom("main", "evil"), async (tenant, ref) => {
      const headers = { ...HEADERS, "x-tenant-id": tenant };
      const before = await get(`/v2/deployments/${other}`);
      expect((await get(`/v2/deployments/${other}`, { "x-tenant-id": tenant })).status).toBe(404);
      expect((await get(`/v2/deployments/${other}/revisions`, { "x-tenant-id": tenant })).status).toBe(404);
      const patched = await simulator.fetch(`http://simulator/v2/deployments/${other}`, {
        method: "PATCH",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify({ source_revision_config: { repo_ref: ref } }),
      });
      expect(patched.status).toBe(404);
      expect((await get(`/v2/deployments/${other}`)).body).toEqual(before.body);
    }),
    { seed: budget(4, 0).seed, numRuns: 4 },
  );
});
