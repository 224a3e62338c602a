// Lists: paging walks every resource once, newest first; each filter of the document selects what
// the seed says it should; X-Tenant-Id hides other tenants' deployments; the other read endpoints
// return connected seed data.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DeploymentRecord } from "../../src/simulator/core/model.js";
import { DEFAULT_SEED_DEPLOYMENTS, SEED_IDS, seedState } from "../../src/simulator/core/seed.js";
import type { RunningSimulator } from "../../src/simulator/node/index.js";
import { deref, operationById } from "../support/document.js";
import { startTestSimulator, type Client } from "./support.js";

// Steps long enough that no seeded revision (and so no deployment status) moves during the tests.
let simulator: RunningSimulator;
let client: Client;
const seed = seedState(DEFAULT_SEED_DEPLOYMENTS);
const newestFirst = [...seed.deployments].reverse();

beforeAll(async () => {
  ({ simulator, client } = await startTestSimulator({ stepSeconds: 3600 }));
});
afterAll(() => simulator.close());

const parametersOf = (operationId: string): any[] => (operationById(operationId).op.parameters ?? []).map((p: unknown) => deref(p));
const enumOf = (param: any): string[] => {
  const schema = deref(param.schema);
  return (deref(schema.items ?? schema).enum ?? []).filter((v: unknown) => v !== null);
};

describe("paging", () => {
  it("walks every deployment exactly once, newest first, with offset = request offset + count", async () => {
    const seen: any[] = [];
    let offset = 0;
    for (;;) {
      const page = await client.ok(`/v2/deployments?limit=7&offset=${offset}`);
      expect(page.offset).toBe(offset + page.resources.length);
      seen.push(...page.resources);
      offset = page.offset;
      if (page.resources.length < 7) break;
    }
    expect(seen).toHaveLength(DEFAULT_SEED_DEPLOYMENTS);
    expect(new Set(seen.map((d) => d.id)).size).toBe(DEFAULT_SEED_DEPLOYMENTS);
    for (let i = 1; i < seen.length; i++) expect(seen[i - 1].created_at > seen[i].created_at).toBe(true);
    expect(seen[0].id).toBe(SEED_IDS.deployment_id);
    expect(seen[0].source).toBe("scm_host");
    // Past the end: an empty page and the same offset.
    expect(await client.ok(`/v2/deployments?offset=${offset + 5}`)).toEqual({ resources: [], offset: offset + 5 });
  });

  it("uses the document's default page size and coerces numbers like Prism (limit=1e1 is 10)", async () => {
    const limit = parametersOf("listDeployments").find((p) => p.name === "limit");
    expect((await client.ok("/v2/deployments")).resources).toHaveLength(deref(limit.schema).default);
    expect((await client.ok("/v2/deployments?limit=1e1")).resources).toHaveLength(10);
  });

  it("walks every revision of a deployment once, newest first", async () => {
    const record = newestFirst.find((r) => r.revisions.length === 3)!;
    const seen: any[] = [];
    for (let offset = 0; ; ) {
      const page = await client.ok(`/v2/deployments/${record.deployment.id}/revisions?limit=2&offset=${offset}`);
      seen.push(...page.resources);
      offset = page.offset;
      if (page.resources.length < 2) break;
    }
    expect(seen.map((r) => r.id)).toEqual([...record.revisions].reverse().map((r) => r.revision.id));
    // The list items are whole revisions, the same as GET of each one.
    for (const item of seen) expect(item).toEqual(await client.ok(`/v2/deployments/${record.deployment.id}/revisions/${item.id}`));
  });

  it("pages listeners", async () => {
    const first = await client.ok("/v2/listeners?limit=2");
    const second = await client.ok(`/v2/listeners?limit=2&offset=${first.offset}`);
    expect(first.resources).toHaveLength(2);
    expect(second.resources).toHaveLength(1);
    expect(second.offset).toBe(3);
    expect(new Set([...first.resources, ...second.resources].map((l) => l.id)).size).toBe(3);
  });
});

describe("deployment filters (each query parameter of listDeployments)", () => {
  // What each filter means, checked against the seed (some filtered fields are not in the response).
  const imageVersions = [...new Set(seed.deployments.map((r) => r.deployment.image_version).filter(Boolean))] as string[];
  const [tagA, tagB, , tagD] = SEED_IDS.tag_value_ids;
  const oracles: Record<string, { values: string[]; matches: (r: DeploymentRecord, value: string) => boolean }> = {
    name_contains: { values: ["support", "AGENT-1", "no-such-name"], matches: (r, v) => r.deployment.name.toLowerCase().includes(v.toLowerCase()) },
    status: { values: [], matches: (r, v) => r.deployment.status === v },
    remote_reconciled: { values: ["true", "false"], matches: (r, v) => r.remote_reconciled === (v === "true") },
    tag_value_ids: { values: [tagB!, `${tagA},${tagD}`], matches: (r, v) => v.split(",").some((t) => r.tag_value_ids.includes(t)) },
    image_version: { values: imageVersions.slice(0, 2), matches: (r, v) => r.deployment.image_version === v },
    deployment_type: { values: [], matches: (r, v) => r.deployment_type === v },
    deployment_ids: {
      values: [`${newestFirst[3]!.deployment.id},${newestFirst[9]!.deployment.id}`],
      matches: (r, v) => v.split(",").includes(r.deployment.id),
    },
  };

  for (const param of parametersOf("listDeployments").filter((p) => p.in === "query" && !["limit", "offset"].includes(p.name))) {
    it(`${param.name}`, async () => {
      const oracle = oracles[param.name];
      expect(oracle, `the test knows what ${param.name} means`).toBeDefined();
      const values = oracle!.values.length > 0 ? oracle!.values : enumOf(param);
      expect(values.length).toBeGreaterThan(0);
      let narrowed = false;
      for (const value of values) {
        const got = await client.allDeployments(`${param.name}=${encodeURIComponent(value)}`, 5);
        const expected = newestFirst.filter((r) => oracle!.matches(r, value)).map((r) => r.deployment.id);
        expect(
          got.map((d) => d.id),
          `${param.name}=${value}`,
        ).toEqual(expected);
        if (expected.length > 0 && expected.length < seed.deployments.length) narrowed = true;
      }
      expect(narrowed, `some value of ${param.name} selects some but not all deployments`).toBe(true);
    });
  }

  it("filters combine with AND", async () => {
    const got = await client.allDeployments("status=READY&deployment_type=prod&remote_reconciled=false");
    const expected = newestFirst
      .filter((r) => r.deployment.status === "READY" && r.deployment_type === "prod" && !r.remote_reconciled)
      .map((r) => r.deployment.id);
    expect(expected.length).toBeGreaterThan(0);
    expect(got.map((d) => d.id)).toEqual(expected);
  });
});

describe("revision filters (each query parameter of listRevisions)", () => {
  const all = newestFirst.flatMap((r) => r.revisions.map((rev) => ({ owner: r, rev })));
  it.each(
    parametersOf("listRevisions")
      .filter((p) => p.in === "query" && !["limit", "offset"].includes(p.name))
      .map((p) => [p.name, p]),
  )("%s", async (name, param) => {
    const cases: Array<[string, (x: (typeof all)[number]) => boolean]> =
      name === "status"
        ? [
            ["DEPLOYED", (x) => x.rev.revision.status === "DEPLOYED"],
            ["INTERRUPTED,BUILD_FAILED", (x) => ["INTERRUPTED", "BUILD_FAILED"].includes(x.rev.revision.status)],
          ]
        : name === "remote_reconciled"
          ? [
              ["true", (x) => x.rev.remote_reconciled],
              ["false", (x) => !x.rev.remote_reconciled],
            ]
          : [];
    expect(cases.length, `the test knows what ${name} means`).toBeGreaterThan(0);
    if (name === "status") expect(enumOf(param)).toContain("INTERRUPTED");
    for (const [value, matches] of cases) {
      let total = 0;
      for (const record of newestFirst) {
        const got = (await client.ok(`/v2/deployments/${record.deployment.id}/revisions?limit=100&${name}=${value}`)).resources;
        const expected = all
          .filter((x) => x.owner === record && matches(x))
          .map((x) => x.rev.revision.id)
          .reverse();
        expect(
          got.map((r: any) => r.id),
          `${record.deployment.name} ${name}=${value}`,
        ).toEqual(expected);
        total += expected.length;
      }
      expect(total, `${name}=${value} selects something`).toBeGreaterThan(0);
    }
  });
});

describe("tenant isolation (X-Tenant-Id)", () => {
  const main = { "x-tenant-id": SEED_IDS.tenant_id };
  const other = { "x-tenant-id": SEED_IDS.other_tenant_id };
  const hidden = SEED_IDS.other_tenant_deployment_id;

  it("lists only the tenant's deployments; the two tenants together are all of them", async () => {
    const mine = await client.allDeployments("", 100, main);
    const theirs = await client.allDeployments("", 100, other);
    expect(mine.length).toBeGreaterThan(0);
    expect(theirs.length).toBeGreaterThan(0);
    expect(mine.every((d) => d.tenant_id === SEED_IDS.tenant_id)).toBe(true);
    expect(theirs.every((d) => d.tenant_id === SEED_IDS.other_tenant_id)).toBe(true);
    expect(mine.length + theirs.length).toBe(DEFAULT_SEED_DEPLOYMENTS);
    expect(await client.allDeployments("", 100, { "x-tenant-id": "00000000-0000-4000-8000-000000000000" })).toEqual([]);
  });

  it("another tenant's deployment answers 404 everywhere, as if it did not exist", async () => {
    const record = seed.deployments.find((r) => r.deployment.id === hidden)!;
    const revision = record.revisions[0]!.revision.id;
    const unknown = await client.get(`/v2/deployments/00000000-0000-4000-8000-000000000000`, main);
    for (const answer of [
      await client.get(`/v2/deployments/${hidden}`, main),
      await client.get(`/v2/deployments/${hidden}/revisions`, main),
      await client.get(`/v2/deployments/${hidden}/revisions/${revision}`, main),
      await client.patch(`/v2/deployments/${hidden}`, { secrets: [] }, main),
    ]) {
      expect(answer.status).toBe(404);
      expect(answer.contentType).toMatch(/^application\/problem\+json/);
      expect(Object.keys(answer.body).sort()).toEqual(Object.keys(unknown.body).sort());
    }
    expect((await client.get(`/v2/deployments/${hidden}`, other)).status).toBe(200);
    expect((await client.get(`/v2/deployments/${hidden}`)).status).toBe(200);
  });
});

describe("the other resources", () => {
  it("providers: with and without PKCE, found by provider_id", async () => {
    const providers = await client.ok("/v2/auth/providers");
    expect(providers.some((p: any) => p.uses_pkce && p.code_challenge_method === "S256")).toBe(true);
    expect(providers.some((p: any) => !p.uses_pkce && p.code_challenge_method === null)).toBe(true);
    for (const p of providers) expect((await client.ok(`/v2/auth/providers/${p.provider_id}`)).id).toBe(p.id);
    expect((await client.get("/v2/auth/providers/nope")).status).toBe(404);
  });

  it("agent connections: an agent with some, one with none, an unknown agent", async () => {
    const { data } = await client.ok(`/v2/auth/agents/${SEED_IDS.agent_id}/connections`);
    expect(data.length).toBeGreaterThan(0);
    expect(data.every((c: any) => c.agent_id === SEED_IDS.agent_id)).toBe(true);
    const providers = (await client.ok("/v2/auth/providers")).map((p: any) => p.provider_id);
    expect(data.every((c: any) => providers.includes(c.provider_id))).toBe(true);
    expect(await client.ok(`/v2/auth/agents/${SEED_IDS.agent_without_connections_id}/connections`)).toEqual({ data: [] });
    expect((await client.get("/v2/auth/agents/nobody/connections")).status).toBe(404);
  });

  it("repositories: every scm_host deployment's integration lists its repository", async () => {
    const deployments = (await client.allDeployments()).filter((d) => d.source === "scm_host");
    const kinds = new Set<string>();
    for (const d of deployments) {
      const id = d.source_config.integration_id;
      const scm = await client.get(`/v1/integrations/scm/${id}/repos`);
      const forge = await client.get(`/v1/integrations/forge/scm/${id}/repos`);
      const found = scm.status === 200 ? scm : forge;
      expect([scm.status, forge.status].sort()).toEqual([200, 404]);
      kinds.add(scm.status === 200 ? "scm" : "forge");
      expect(found.body.every((r: any) => r.host_integration_id === id)).toBe(true);
      expect(found.body.map((r: any) => r.url)).toContain(d.source_config.repo_url);
    }
    expect(kinds).toEqual(new Set(["scm", "forge"]));
  });

  it("listener patch changes version and namespaces, and the list shows it", async () => {
    const path = `/v2/listeners/${SEED_IDS.listener_id}`;
    const answer = await client.patch(path, { version: "1.2.3", compute_config: { k8s_namespaces: ["a", "b"] } });
    expect(answer.status).toBe(200);
    expect(answer.body.version).toBe("1.2.3");
    expect(answer.body.compute_config).toEqual({ k8s_namespaces: ["a", "b"] });
    const listed = (await client.ok("/v2/listeners?limit=100")).resources.find((l: any) => l.id === SEED_IDS.listener_id);
    expect(listed).toEqual(answer.body);
    const onlyVersion = await client.patch(path, { version: "1.2.4" });
    expect(onlyVersion.body.compute_config).toEqual({ k8s_namespaces: ["a", "b"] });
    const unchangeable = await client.patch(path, { compute_id: "other" });
    expect(unchangeable.status).toBe(422);
    expect(unchangeable.body.errors).toEqual([expect.objectContaining({ pointer: "/compute_id" })]);
  });
});
