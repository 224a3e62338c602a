// Every answer the simulator gives validates against the document: each operation's 200 schema
// (fresh seed, every seeded revision, after patches), and the documented problem+json responses
// for 401, 404, 415, 400 and 422, whose `errors` name the violated fields.
import { fitsSource } from "../../src/shared/source-rules.js";
import type { DeploymentPatch, Source } from "../../src/shared/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOpenApiValidator, describeErrors } from "../support/openapi-validator.js";
import { SEED_IDS } from "../../src/simulator/core/seed.js";
import type { RunningSimulator } from "../../src/simulator/node/index.js";
import { deref, document, operationById, operations, type Operation } from "../support/document.js";
import { Client, startTestSimulator } from "./support.js";

const validator = createOpenApiValidator(document);
let simulator: RunningSimulator;
let client: Client;

beforeAll(async () => {
  ({ simulator, client } = await startTestSimulator({ stepSeconds: 3600 }));
});
afterAll(() => simulator.close());

function pathFor(op: Operation, override: Record<string, string> = {}): string {
  return op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    if (override[name] !== undefined) return encodeURIComponent(override[name]);
    if (name === "integration_id") return op.path.includes("/forge/") ? SEED_IDS.forge_integration_id : SEED_IDS.scm_integration_id;
    const id = (SEED_IDS as Record<string, unknown>)[name];
    if (typeof id !== "string") throw new Error(`no seed id for ${name}`);
    return id;
  });
}

function requestBodies(op: Operation): unknown[] {
  if (!op.op.requestBody) return [undefined];
  const media = deref(op.op.requestBody).content["application/json"];
  return Object.values<any>(media.examples ?? {}).map((ex) => deref(ex).value);
}

function expectDocumented(op: Operation, status: number, answer: { contentType: string; body: unknown }, where: string): void {
  const response = deref(op.op.responses[String(status)]);
  expect(response, `${where}: ${status} is documented`).toBeDefined();
  const [mediaType, media] = Object.entries<any>(response.content)[0]!;
  expect(answer.contentType.split(";")[0], where).toBe(mediaType);
  const check = validator.validatorFor(media.schema, `test ${op.operationId} ${status}`);
  expect(check(answer.body), `${where}: ${describeErrors(check.errors)}`).toBe(true);
}

/** For a patch example, a seeded deployment whose source takes its fields (src/shared/source-rules.ts): the default one when it does. */
async function deploymentFor(body: DeploymentPatch): Promise<Record<string, string>> {
  const fitting = (await client.ok("/v2/deployments?limit=10")).resources.filter((d: { source: Source }) => fitsSource(d.source, body));
  return fitting.some((d: { id: string }) => d.id === SEED_IDS.deployment_id) ? {} : { deployment_id: fitting[0].id };
}

async function checkEveryOperation(label: string): Promise<void> {
  for (const op of operations()) {
    for (const body of requestBodies(op)) {
      const ids = op.operationId === "patchDeployment" ? await deploymentFor(body as DeploymentPatch) : {};
      const answer = await client.request(op.method.toUpperCase(), pathFor(op, ids), body);
      const where = `${label}: ${op.method.toUpperCase()} ${op.path}`;
      expect(answer.status, `${where} ${JSON.stringify(answer.body)}`).toBe(200);
      expectDocumented(op, 200, answer, where);
      const items = Array.isArray(answer.body) ? answer.body : (answer.body.resources ?? answer.body.data);
      if (items) expect(items.length, `${where} returns something to validate`).toBeGreaterThan(0);
    }
  }
}

describe("200 answers validate against the operation's schema", () => {
  it("for every operation on the fresh seed", () => checkEveryOperation("seed"));

  it("for every operation after revisions were created and moved", async () => {
    await client.request("POST", "/_simulator/reset");
    await client.patch(`/v2/deployments/${SEED_IDS.deployment_id}`, { source_revision_config: { repo_ref: "x" } });
    await client.request("POST", "/_simulator/advance", { seconds: 3600 * 3 });
    await checkEveryOperation("after patches");
    await client.request("POST", "/_simulator/reset");
  });

  it("for every seeded deployment and revision; the seed covers every source and state", async () => {
    const getDeployment = operationById("getDeployment");
    const getRevision = operationById("getRevision");
    const sources = new Set<string>();
    const deploymentStates = new Set<string>();
    const revisionStates = new Set<string>();
    for (const listed of await client.allDeployments()) {
      const d = await client.get(`/v2/deployments/${listed.id}`);
      expectDocumented(getDeployment, 200, d, `deployment ${listed.name}`);
      sources.add(d.body.source);
      deploymentStates.add(d.body.status);
      for (const item of (await client.ok(`/v2/deployments/${listed.id}/revisions?limit=100`)).resources) {
        const r = await client.get(`/v2/deployments/${listed.id}/revisions/${item.id}`);
        expectDocumented(getRevision, 200, r, `revision ${item.id}`);
        revisionStates.add(r.body.status);
      }
    }
    const schemas = document.components.schemas;
    expect([...sources].sort()).toEqual([...schemas.DeploymentSource.enum].sort());
    expect([...deploymentStates].sort()).toEqual([...schemas.DeploymentStatus.enum].sort());
    expect([...revisionStates].sort()).toEqual([...schemas.RevisionStatus.enum].sort());
  });
});

describe("problem+json answers", () => {
  it("401 without X-Api-Key, for every operation", async () => {
    const anonymous = new Client(simulator.url, {});
    for (const op of operations()) {
      const answer = await anonymous.request(op.method.toUpperCase(), pathFor(op), requestBodies(op)[0]);
      expect(answer.status, op.operationId).toBe(401);
      expectDocumented(op, 401, answer, op.operationId);
    }
  });

  it("401 for a key not in apiKeys, when apiKeys is configured", async () => {
    const locked = await startTestSimulator({ apiKeys: ["right"] });
    try {
      const path = "/v2/deployments";
      expect((await new Client(locked.simulator.url, { "x-api-key": "wrong" }).get(path)).status).toBe(401);
      expect((await new Client(locked.simulator.url, { "x-api-key": "right" }).get(path)).status).toBe(200);
    } finally {
      await locked.simulator.close();
    }
  });

  it("404 for an unknown id, for every operation with a path id", async () => {
    const unknownUuid = "00000000-0000-4000-8000-000000000000";
    for (const op of operations()) {
      const params = [...(op.pathItem.parameters ?? []), ...(op.op.parameters ?? [])].map((p: unknown) => deref(p)).filter((p: any) => p.in === "path");
      expect(params.length, `${op.operationId} path parameters`).toBe((op.path.match(/\{/g) ?? []).length);
      for (const param of params) {
        const value = deref(param.schema).format === "uuid" ? unknownUuid : "no-such-id";
        const answer = await client.request(op.method.toUpperCase(), pathFor(op, { [param.name]: value }), requestBodies(op)[0]);
        expect(answer.status, `${op.operationId} ${param.name}`).toBe(404);
        expectDocumented(op, 404, answer, `${op.operationId} ${param.name}`);
      }
    }
  });

  it("404 problem+json for an unknown route, 405 for a wrong method", async () => {
    const unknown = await client.get("/v2/nothing-here");
    expect(unknown.status).toBe(404);
    expect(unknown.contentType).toMatch(/^application\/problem\+json/);
    expect(unknown.body.status).toBe(404);
    const wrongMethod = await client.request("DELETE", `/v2/deployments/${SEED_IDS.deployment_id}`);
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.contentType).toMatch(/^application\/problem\+json/);
  });

  it("answers CORS preflights and shares answers with loopback origins only", async () => {
    const local = "http://localhost:5173";
    const preflight = await fetch(`${simulator.url}/v2/deployments/${SEED_IDS.deployment_id}`, {
      method: "OPTIONS",
      headers: { origin: local, "access-control-request-method": "PATCH", "access-control-request-headers": "content-type, x-api-key" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe(local);
    expect(preflight.headers.get("access-control-allow-methods")).toContain("PATCH");
    expect(preflight.headers.get("access-control-allow-headers")).toContain("x-api-key");
    const get = await fetch(`${simulator.url}/v2/listeners`, { headers: { "x-api-key": "k", origin: local } });
    expect(get.headers.get("access-control-allow-origin")).toBe(local);
    // A page on another site gets no CORS grant, so its browser keeps the answer from it.
    const foreign = await fetch(`${simulator.url}/v2/listeners`, { headers: { "x-api-key": "k", origin: "https://evil.example" } });
    expect(foreign.headers.get("access-control-allow-origin")).toBeNull();
    expect(foreign.headers.get("vary")).toMatch(/origin/i);
    const foreignPreflight = await fetch(`${simulator.url}/v2/listeners`, {
      method: "OPTIONS",
      headers: { origin: "https://evil.example", "access-control-request-method": "PATCH" },
    });
    expect(foreignPreflight.headers.get("access-control-allow-origin")).toBeNull();
  });

  const patchOps = () => operations().filter((o) => o.op.requestBody);

  it("415 for a body that is not JSON, 400 for malformed JSON, on every operation with a body", async () => {
    expect(patchOps().length).toBeGreaterThan(0);
    for (const op of patchOps()) {
      const wrongType = await client.request(op.method.toUpperCase(), pathFor(op), "{}", { "content-type": "text/plain" });
      expect(wrongType.status, op.operationId).toBe(415);
      expectDocumented(op, 415, wrongType, op.operationId);
      const malformed = await client.request(op.method.toUpperCase(), pathFor(op), '{"version": ');
      expect(malformed.status, op.operationId).toBe(400);
      expectDocumented(op, 400, malformed, op.operationId);
    }
  });

  it("422 names each bad query and path parameter", async () => {
    const listDeployments = operationById("listDeployments");
    const cases: Array<[string, string[]]> = [
      ["/v2/deployments?limit=0", ["limit"]],
      ["/v2/deployments?limit=101&offset=-1", ["limit", "offset"]],
      ["/v2/deployments?limit=ten", ["limit"]],
      ["/v2/deployments?limit=2.5", ["limit"]],
      ["/v2/deployments?status=BROKEN&deployment_type=huge", ["status", "deployment_type"]],
      ["/v2/deployments?remote_reconciled=maybe", ["remote_reconciled"]],
      ["/v2/deployments?deployment_ids=not-a-uuid", ["deployment_ids"]],
      ["/v2/deployments/not-a-uuid", ["deployment_id"]],
      [`/v2/deployments/${SEED_IDS.deployment_id}/revisions?status=DEPLOYED,NOPE`, ["status"]],
    ];
    for (const [path, names] of cases) {
      const answer = await client.get(path);
      expect(answer.status, path).toBe(422);
      expectDocumented(listDeployments, 422, answer, path);
      expect(answer.body.errors.map((e: any) => e.parameter).sort(), path).toEqual([...names].sort());
      for (const e of answer.body.errors) expect(e.detail, path).toMatch(/\w/);
    }
  });

  it("422 names each bad body field with a JSON Pointer", async () => {
    const patchDeployment = operationById("patchDeployment");
    const cases: Array<[unknown, string[]]> = [
      [{ name: "renamed" }, ["/name"]],
      [{ source: "scm_host" }, ["/source"]],
      [{ revision_source: "external_docker" }, ["/revision_source"]],
      [{ source_config: { listener_id: "nope", extra: 1 } }, ["/source_config/listener_id", "/source_config/extra"]],
      [{ source_config: { resource_spec: { min_scale: "two" } } }, ["/source_config/resource_spec/min_scale"]],
      [{ source_revision_config: { repo_commit_sha: "abc" } }, ["/source_revision_config/repo_commit_sha"]],
      [{ secrets: [{ name: "A" }] }, ["/secrets/0/value"]],
      [{ secret_references: [{ name: "A", secret_name: "s", secret_key: "k", extra: true }] }, ["/secret_references/0/extra"]],
      [[], [""]],
    ];
    for (const [body, pointers] of cases) {
      const answer = await client.patch(`/v2/deployments/${SEED_IDS.deployment_id}`, body);
      const where = JSON.stringify(body);
      expect(answer.status, where).toBe(422);
      expectDocumented(patchDeployment, 422, answer, where);
      expect(answer.body.errors.map((e: any) => e.pointer).sort(), where).toEqual([...pointers].sort());
    }
  });
});
