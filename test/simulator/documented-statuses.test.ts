// Every status the simulator can answer for an operation is documented for that operation. The
// statuses are derived by asking, not listed by hand: for each operation of the document, a valid
// request and one request per kind of mistake or fault (no key, a bad tenant header, an unknown id,
// bad parameters, each body mistake, a body too large, a foreign Host, a cross-site write, a full
// disk, each fault the control API can inject) are sent in-process and over node:http, and each
// status that comes back must be in the operation's `responses`.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REQUEST_BOUNDS } from "../../src/gate/bounds.js";
import { StorageError, type Persistence } from "../../src/simulator/core/changes.js";
import { createSimulator, SEED_IDS, startSimulator, type RunningSimulator, type Simulator } from "../../src/simulator/node/index.js";
import { deref, operations, type Operation } from "../support/document.js";
import { sendRaw } from "../support/raw-http.js";
import { API_KEY } from "./support.js";

const BASE = "https://sim.example.test";
const key = { "x-api-key": API_KEY };

function pathValue(op: Operation, name: string, unknown: boolean): string {
  const known: Record<string, string> = {
    deployment_id: SEED_IDS.deployment_id,
    revision_id: SEED_IDS.revision_id,
    listener_id: SEED_IDS.listener_id,
    provider_id: SEED_IDS.provider_id,
    agent_id: SEED_IDS.agent_id,
    integration_id: op.path.includes("forge") ? SEED_IDS.forge_integration_id : SEED_IDS.scm_integration_id,
  };
  if (!unknown) return known[name]!;
  return /_id$/.test(name) && known[name]!.includes("-") ? "00000000-0000-4000-8000-000000000000" : "no-such-thing";
}

const pathOf = (op: Operation, unknownParam?: string) => op.path.replace(/\{(\w+)\}/g, (_, name: string) => pathValue(op, name, name === unknownParam));
const pathParams = (op: Operation) => [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
const queryParams = (op: Operation) =>
  [...(op.pathItem.parameters ?? []), ...(op.op.parameters ?? [])].map((p: unknown) => deref(p)).filter((p: any) => p.in === "query");

function validBody(op: Operation): string | undefined {
  const content = op.op.requestBody && deref(op.op.requestBody).content?.["application/json"];
  if (!content) return undefined;
  const example = Object.values<any>(content.examples ?? {})[0];
  return JSON.stringify(example ? deref(example).value : {});
}

interface Probe {
  name: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** One request per kind of answer an operation can get in-process. */
function probes(op: Operation): Probe[] {
  const body = validBody(op);
  const json = { ...key, "content-type": "application/json" };
  const valid: Probe = { name: "valid", path: pathOf(op), headers: body ? json : key, ...(body ? { body } : {}) };
  const out: Probe[] = [
    valid,
    { ...valid, name: "no key", headers: { ...valid.headers, "x-api-key": "" } },
    { ...valid, name: "bad tenant", headers: { ...valid.headers, "x-tenant-id": "not-a-uuid" } },
    { ...valid, name: "other tenant", headers: { ...valid.headers, "x-tenant-id": SEED_IDS.other_tenant_id } },
    ...pathParams(op).map((name) => ({ ...valid, name: `unknown ${name}`, path: pathOf(op, name) })),
    ...queryParams(op).map((p: any) => ({ ...valid, name: `bad ${p.name}`, path: `${pathOf(op)}?${p.name}=-1&${p.name}=%FF` })),
  ];
  if (body) {
    out.push(
      { ...valid, name: "text/plain", headers: { ...key, "content-type": "text/plain" } },
      { ...valid, name: "malformed JSON", body: "{" },
      { ...valid, name: "unknown field", body: '{"no_such_field": 1}' },
      { ...valid, name: "no body", body: "" },
      { ...valid, name: "too large", body: " ".repeat(REQUEST_BOUNDS.maxBodyBytes + 1) },
    );
  }
  return out;
}

async function send(sim: Simulator, probe: Probe, method: string): Promise<number | "dropped"> {
  try {
    const response = await sim.fetch(`${BASE}${probe.path}`, {
      method,
      headers: probe.headers ?? {},
      ...(probe.body !== undefined ? { body: probe.body } : {}),
    });
    await response.arrayBuffer();
    return response.status;
  } catch (error) {
    if (error instanceof TypeError) return "dropped";
    throw error;
  }
}

/** A raw request over node:http, with headers fetch does not let a caller set (Host, a false Content-Length). */
async function raw(url: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<number> {
  return (await sendRaw(url, { method, path, headers, body, streamBody: true, answerMayCutUpload: true })).status;
}

const full: Persistence = {
  load: async () => undefined,
  append: async (changes) => {
    if (changes.some((c) => c.op !== "replace_state")) throw new StorageError("disk full", "ENOSPC", 507);
  },
  attach: () => {},
  close: async () => {},
};

const answered = new Map<string, Map<number, string>>();
const record = (op: Operation, status: number | "dropped", how: string) => {
  if (status === "dropped") return;
  const statuses = answered.get(op.operationId) ?? new Map<number, string>();
  answered.set(op.operationId, statuses);
  if (!statuses.has(status)) statuses.set(status, how);
};

let running: RunningSimulator;
beforeAll(async () => {
  running = await startSimulator({ port: 0, quiet: true });
  const sim = createSimulator();
  const fullDisk = createSimulator({ persistence: full });
  await fullDisk.ready;
  for (const op of operations()) {
    const method = op.method.toUpperCase();
    for (const probe of probes(op)) {
      record(op, await send(sim, probe, method), `in-process: ${probe.name}`);
      record(op, await raw(running.url, method, probe.path, probe.headers ?? {}, probe.body), `node:http: ${probe.name}`);
    }
    for (const fault of [429, 500, 503, "drop"] as const) {
      await sim.injectFault({ operation: op.operationId, fault });
      record(op, await send(sim, probes(op)[0]!, method), `in-process: fault ${fault}`);
    }
    record(op, await send(fullDisk, probes(op)[0]!, method), "in-process: full disk");
    const valid = probes(op)[0]!;
    record(op, await raw(running.url, method, valid.path, { ...valid.headers, host: "evil.example" }, valid.body), "node:http: foreign Host");
    record(
      op,
      await raw(running.url, method, valid.path, { ...valid.headers, origin: "https://evil.example", "content-type": "text/plain" }, valid.body ?? ""),
      "node:http: cross-site",
    );
    record(
      op,
      await raw(running.url, method, valid.path, { ...key, "content-length": String(REQUEST_BOUNDS.maxBodyBytes + 1) }, "{"),
      "node:http: declared too large",
    );
  }
}, 120_000);
afterAll(() => running.close());

describe("every status the simulator answers is documented for its operation", () => {
  for (const op of operations()) {
    it(`${op.operationId}`, () => {
      const statuses = answered.get(op.operationId)!;
      const documented = Object.keys(op.op.responses);
      for (const [status, how] of statuses) expect(documented, `${op.operationId} answered ${status} (${how})`).toContain(String(status));
      // The probes reached what they were meant to: the test cannot pass by answering nothing.
      for (const status of [200, 401, 403, 413, 422, 429, 500, 503]) expect([...statuses.keys()], op.operationId).toContain(status);
      if (op.op.requestBody) for (const status of [400, 415, 507]) expect([...statuses.keys()], op.operationId).toContain(status);
      if (op.path.includes("{")) expect([...statuses.keys()], op.operationId).toContain(404);
    });
  }
});
