// One id, one resource: every id the document's examples use names, in the simulator's seed, the
// resource the example shows (same name, source, tier, tenant for a deployment; same source for a
// revision, and a revision of the deployment the example says; same compute for a listener), and
// every id an example refers to (latest and active revision, listener, integration, tenant) exists.
import { describe, expect, it } from "vitest";
import { createSimulator } from "../../src/simulator/core/index.js";
import { deref, document } from "../support/document.js";
import { API_KEY, Client } from "./support.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Each example's value, by its name in components.examples. */
const examples = Object.entries<any>(document.components.examples).map(([name, example]) => [name, deref(example).value] as const);

/** The objects of kind `prefix` in the examples: a single resource, or the items of a page or list. */
function resources(prefix: string): any[] {
  const out: any[] = [];
  for (const [name, value] of examples) {
    if (!name.startsWith(prefix) || name.includes("Patch")) continue;
    const items = Array.isArray(value) ? value : Array.isArray(value?.resources) ? value.resources : [value];
    out.push(...items.filter((item: any) => typeof item?.id === "string"));
  }
  return out;
}

describe("the document's examples and the simulator's seed agree on every example id", async () => {
  const sim = createSimulator();
  const client = new Client("https://sim.example.test", { "x-api-key": API_KEY }, sim.fetch);
  const deployments = await client.allDeployments();
  const revisionsOf = new Map<string, any[]>();
  for (const d of deployments) revisionsOf.set(d.id, (await client.ok(`/v2/deployments/${d.id}/revisions?limit=100`)).resources);
  const ownerOf = (revisionId: string) => [...revisionsOf].find(([, list]) => list.some((r) => r.id === revisionId));

  const exampleDeployments = resources("Deployment");
  it("the examples show deployments, revisions and listeners to check", () => {
    expect(exampleDeployments.length).toBeGreaterThanOrEqual(4);
    expect(resources("Revision").length).toBeGreaterThanOrEqual(4);
    expect(resources("Listener").length).toBeGreaterThanOrEqual(2);
  });

  for (const example of exampleDeployments) {
    it(`deployment ${example.id} is ${example.name} (${example.source}) in the seed too`, async () => {
      const seeded = await client.ok(`/v2/deployments/${example.id}`);
      expect({
        name: seeded.name,
        source: seeded.source,
        tenant_id: seeded.tenant_id,
        deployment_type: seeded.source_config.deployment_type,
        listener_id: seeded.source_config.listener_id ?? null,
        integration_id: seeded.source_config.integration_id ?? null,
      }).toEqual({
        name: example.name,
        source: example.source,
        tenant_id: example.tenant_id,
        deployment_type: example.source_config.deployment_type,
        listener_id: example.source_config.listener_id ?? null,
        integration_id: example.source_config.integration_id ?? null,
      });
      for (const field of ["latest_revision_id", "active_revision_id"]) {
        if (example[field] === null) continue;
        expect(ownerOf(example[field])?.[0], `${field} ${example[field]}`).toBe(example.id);
      }
      expect(seeded.latest_revision_id).toBe(example.latest_revision_id);
    });
  }

  for (const example of resources("Revision")) {
    it(`revision ${example.id} is a ${example.source} revision in the seed too`, () => {
      const owner = ownerOf(example.id);
      expect(owner, `no seeded deployment has revision ${example.id}`).toBeDefined();
      const seeded = owner![1].find((r) => r.id === example.id);
      expect(seeded.source).toBe(example.source);
    });
  }

  for (const example of resources("Listener")) {
    it(`listener ${example.id} is ${example.compute_type}/${example.compute_id} in the seed too`, async () => {
      const seeded = (await client.ok("/v2/listeners?limit=100")).resources.find((l: any) => l.id === example.id);
      expect({ compute_type: seeded?.compute_type, compute_id: seeded?.compute_id }).toEqual({
        compute_type: example.compute_type,
        compute_id: example.compute_id,
      });
    });
  }

  it("the path parameters' own examples name seeded resources that belong together", async () => {
    const example = (name: string) => document.components.parameters[name].example as string;
    expect((await client.get(`/v2/deployments/${example("DeploymentId")}/revisions/${example("RevisionId")}`)).status).toBe(200);
  });

  it("every integration an example names lists repositories of that kind", async () => {
    for (const [name, value] of examples.filter(([n]) => n.startsWith("RepositoryList"))) {
      const kind = name.includes("Forge") ? "forge/scm" : "scm";
      for (const repo of value) {
        expect(repo.host_integration_id).toMatch(UUID);
        expect((await client.get(`/v1/integrations/${kind}/${repo.host_integration_id}/repos`)).status, name).toBe(200);
      }
    }
  });
});
