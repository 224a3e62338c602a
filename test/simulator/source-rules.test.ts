// The source table (src/shared/source-rules.ts) on the simulator: every patch field on every
// deployment source, in-process (sim.fetch) and over HTTP (startSimulator), answers what the table
// says: 200 when the source takes it; 422 naming the field (code not_for_source) when it does not;
// 400 with the service's sentence for a revision_source of another source. A refused patch changes
// nothing: the deployment and its revisions read the same before and after.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSimulator } from "../../src/simulator/core/simulator.js";
import { startSimulator, type RunningSimulator } from "../../src/simulator/node/index.js";
import { operationSpecs } from "../../src/docs-console/requests.js";
import { SOURCE_RULE_SENTENCE } from "../../src/mcp/revision-tools.js";
import { openApiDocument } from "../../src/shared/document.js";
import {
  DEPLOYMENT_SOURCES,
  REVISION_CONFIG_FIELDS,
  SOURCE_CONFIG_FIELDS,
  SOURCE_RULES,
  sourceRuleLines,
  sourcesTaking,
} from "../../src/shared/source-rules.js";
import { document } from "../support/document.js";
import { allNullPatch, type SourceCase, sourceCases } from "../support/source-cases.js";
import { API_KEY, Client } from "./support.js";

const CASES = sourceCases();

async function deploymentOf(client: Client, source: string): Promise<string> {
  const page = await client.ok("/v2/deployments?limit=10");
  const found = page.resources.find((d: { source: string }) => d.source === source);
  if (!found) throw new Error(`no seeded ${source} deployment`);
  return found.id;
}

async function runCase(client: Client, ids: Record<string, string>, c: SourceCase): Promise<void> {
  const path = `/v2/deployments/${ids[c.source]}`;
  const before = await client.ok(path);
  const revisionsBefore = await client.ok(`${path}/revisions?limit=100`);
  const answer = await client.patch(path, c.patch);
  expect(answer.status, JSON.stringify(answer.body)).toBe(c.status);
  if (c.status === 200) return;
  expect(answer.contentType).toContain("application/problem+json");
  if (c.status === 422) {
    expect(answer.body.errors).toEqual([expect.objectContaining({ pointer: c.pointer, code: "not_for_source" })]);
  } else {
    expect(answer.body.detail).toBe(c.detail);
    expect(answer.body.detail).toContain(`is only available for '${c.patch.revision_source}' source deployments`);
  }
  // Nothing changed: no revision, no field.
  expect(await client.ok(path)).toEqual(before);
  expect(await client.ok(`${path}/revisions?limit=100`)).toEqual(revisionsBefore);
}

function table(name: string, client: () => Client) {
  describe(name, () => {
    const ids: Record<string, string> = {};
    beforeAll(async () => {
      for (const source of DEPLOYMENT_SOURCES) ids[source] = await deploymentOf(client(), source);
    });
    it.each(CASES.map((c) => [c.name, c] as const))("%s", async (_name, c) => runCase(client(), ids, c));
    it.each(DEPLOYMENT_SOURCES)("%s: every field sent as null is accepted", async (source) => {
      const answer = await client().patch(`/v2/deployments/${ids[source]}`, allNullPatch());
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    });
    it("a patch breaking the table in several fields names each; revision_source is answered first", async () => {
      const path = `/v2/deployments/${ids.internal_docker}`;
      const fields = await client().patch(path, {
        source_config: { repo_url: "https://x.example" },
        source_revision_config: { repo_ref: "main", image_uri: "r/x:1" },
      });
      expect(fields.status).toBe(422);
      expect(fields.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(["/source_config/repo_url", "/source_revision_config/repo_ref"]);
      const both = await client().patch(path, { revision_source: "scm_host", source_revision_config: { repo_ref: "main" } });
      expect(both.status).toBe(400);
    });
  });
}

const sim = createSimulator({ stepSeconds: 3600 });
table("in-process (createSimulator's fetch)", () => new Client("https://api.example.test", { "x-api-key": API_KEY }, sim.fetch));

let running: RunningSimulator;
let http: Client;
beforeAll(async () => {
  running = await startSimulator({ port: 0, quiet: true, stepSeconds: 3600 });
  http = new Client(running.url);
});
afterAll(() => running?.close());
table("over HTTP (startSimulator)", () => http);

describe("the other statements of the table follow it", () => {
  it("the document says on each field which sources take it (generated/openapi.json)", () => {
    const schemas = document.components.schemas;
    const sentence = (sources: readonly string[]) =>
      sources.length === DEPLOYMENT_SOURCES.length ? "Applies to every source." : `Applies to ${sources.map((s) => `\`${s}\``).join(", ")} deployments only;`;
    for (const [schema, section] of [
      ["SourceConfig", "source_config"],
      ["SourceRevisionConfig", "source_revision_config"],
    ] as const) {
      const fields = section === "source_config" ? SOURCE_CONFIG_FIELDS : REVISION_CONFIG_FIELDS;
      for (const field of fields) {
        expect(schemas[schema].properties[field].description, `${section}.${field}`).toContain(sentence(sourcesTaking(section, field)));
      }
    }
    const secretSources = DEPLOYMENT_SOURCES.filter((s) => SOURCE_RULES[s].secretReferences);
    expect(schemas.DeploymentPatch.properties.secret_references.description.replace(/\s+/g, " ")).toContain(
      `Applies to ${secretSources.map((s) => `\`${s}\``).join(", ")} deployments only`,
    );
    // revision_source: each value for its own source only, as the table says.
    for (const source of DEPLOYMENT_SOURCES) {
      expect(SOURCE_RULES[source].revisionSources.every((value) => value === source)).toBe(true);
    }
    expect(schemas.RevisionSource.description.replace(/\s+/g, " ")).toContain("is only available for '<value>' source deployments");
  });

  it("the docs console's patch (its first example, on the deployment it offers first) fits that deployment's source", async () => {
    const spec = operationSpecs(openApiDocument).find((o) => o.operationId === "patchDeployment")!;
    const id = spec.parameters.find((p) => p.name === "deployment_id")!.initial;
    const answer = await new Client("https://api.example.test", { "x-api-key": API_KEY }, createSimulator().fetch).patch(
      `/v2/deployments/${id}`,
      JSON.parse(spec.body!),
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  });

  it("the MCP deploy tool's description states the table, generated from it", () => {
    for (const line of sourceRuleLines()) expect(SOURCE_RULE_SENTENCE).toContain(line);
  });
});
