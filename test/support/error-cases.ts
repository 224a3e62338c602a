// Every error the simulator can answer, as requests: one case per condition (the gate's refusals,
// authentication and key scopes, the checker, the source table, each operation's not-found, the
// faults asked for, a write that cannot be saved). The error-shape tests run each on a simulator
// answering problem+json and on one answering the service's shapes; `documentedErrorStatuses`
// says which statuses the document lets a server answer, so a status without a case fails.
import { REQUEST_BOUNDS } from "../../src/gate/bounds.js";
import { StorageError, type Persistence } from "../../src/simulator/core/changes.js";
import type { CreateSimulatorOptions } from "../../src/simulator/core/simulator.js";
import { SEED_IDS } from "../../src/simulator/core/seed.js";
import { document } from "./document.js";

export const KEY = "error-cases-key";
const TENANT = "7b1e2c3d-4f5a-4b6c-8d7e-9f0a1b2c3d4e";
const OTHER_TENANT = "00000000-0000-4000-8000-0000000000aa";
const UNKNOWN = "00000000-0000-4000-8000-000000000000";
const deployment = `/v2/deployments/${SEED_IDS.deployment_id}`;
const json = { "content-type": "application/json" };

export interface ErrorCase {
  name: string;
  status: number;
  /** The simulator's options for this case (besides `errors`). */
  options?: CreateSimulatorOptions;
  method: string;
  path: string;
  /** Sent as they are; X-Api-Key is KEY unless given (null leaves it out). */
  headers?: Record<string, string | null>;
  body?: string;
  /** Over HTTP, answered by the local-server gate before the core (src/local-server/node-gate.ts), in the simulator's shape too. */
  gate?: true;
}

/** A persistence that cannot save: every write answers 507. */
function fullDisk(): Persistence {
  return {
    load: async () => undefined,
    append: async (changes) => {
      if (changes.some((c) => c.op === "replace_state")) return;
      throw new StorageError("no space", "ENOSPC", 507);
    },
    attach: () => {},
    close: async () => {},
  };
}

export function errorCases(): ErrorCase[] {
  const patch = (body: unknown) => ({ method: "PATCH", path: deployment, headers: json, body: JSON.stringify(body) });
  return [
    { name: "a % escape that does not decode", status: 400, gate: true, method: "GET", path: "/v2/deployments/%E0%A4%A" },
    { name: "a body that is not JSON", status: 400, ...patch(undefined), body: "{" },
    { name: "a revision_source of another source", status: 400, ...patch({ revision_source: "internal_docker" }) },
    { name: "no API key", status: 401, method: "GET", path: "/v2/deployments", headers: { "x-api-key": null } },
    { name: "a key not accepted", status: 401, options: { apiKeys: ["right"] }, method: "GET", path: "/v2/deployments" },
    { name: "an organisation key without X-Tenant-Id", status: 403, options: { keyScope: "organization" }, method: "GET", path: "/v2/deployments" },
    {
      name: "a workspace key naming another workspace",
      status: 403,
      options: { apiKeys: [{ key: KEY, scope: { tenantId: TENANT } }] },
      method: "GET",
      path: "/v2/deployments",
      headers: { "x-tenant-id": OTHER_TENANT },
    },
    { name: "an unknown deployment", status: 404, method: "GET", path: `/v2/deployments/${UNKNOWN}` },
    { name: "an unknown revision", status: 404, method: "GET", path: `${deployment}/revisions/${UNKNOWN}` },
    { name: "an unknown listener", status: 404, method: "PATCH", path: `/v2/listeners/${UNKNOWN}`, headers: json, body: JSON.stringify({ version: "1" }) },
    { name: "an unknown OAuth provider", status: 404, method: "GET", path: "/v2/auth/providers/no-such-provider" },
    { name: "an unknown agent", status: 404, method: "GET", path: "/v2/auth/agents/no-such-agent/connections" },
    { name: "an unknown integration", status: 404, method: "GET", path: `/v1/integrations/scm/${UNKNOWN}/repos` },
    { name: "an unknown route", status: 404, method: "GET", path: "/v2/nothing-here" },
    { name: "a method the path does not take", status: 405, method: "DELETE", path: deployment },
    { name: "a body past the bound", status: 413, gate: true, ...patch(undefined), body: JSON.stringify({ pad: "x".repeat(REQUEST_BOUNDS.maxBodyBytes) }) },
    {
      name: "a body that is not JSON by its media type",
      status: 415,
      method: "PATCH",
      path: deployment,
      headers: { "content-type": "text/plain" },
      body: "{}",
    },
    { name: "a query parameter out of bounds", status: 422, method: "GET", path: "/v2/deployments?limit=500" },
    { name: "a body field of the wrong type and an unknown one", status: 422, ...patch({ name: "x", source_config: { resource_spec: { cpu: "x" } } }) },
    { name: "a field the deployment's source does not take", status: 422, ...patch({ source_revision_config: { image_uri: "r/x:1" } }) },
    { name: "an X-Tenant-Id that is not a tenant id", status: 422, method: "GET", path: "/v2/deployments", headers: { "x-tenant-id": "nope" } },
    { name: "a missing body", status: 422, method: "PATCH", path: deployment, headers: json },
    { name: "a 429 asked for", status: 429, options: { faults: [{ fault: 429 }] }, method: "GET", path: "/v2/deployments" },
    { name: "a 500 asked for", status: 500, options: { faults: [{ fault: 500 }] }, method: "GET", path: "/v2/deployments" },
    { name: "a 503 asked for", status: 503, options: { faults: [{ fault: 503, retryAfterSeconds: 2 }] }, method: "GET", path: "/v2/deployments" },
    { name: "a write that cannot be saved", status: 507, options: { persistence: fullDisk() }, ...patch({ source_revision_config: { repo_ref: "main" } }) },
  ];
}

/** Every error status some operation of the document documents (4xx and 5xx). */
export function documentedErrorStatuses(): number[] {
  const statuses = new Set<number>();
  for (const item of Object.values<any>(document.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      if (!["get", "put", "post", "patch", "delete"].includes(method)) continue;
      for (const status of Object.keys(op.responses ?? {})) if (/^[45]\d\d$/.test(status)) statuses.add(Number(status));
    }
  }
  return [...statuses].sort();
}

/** The request of a case as a Request to `base`. */
export function requestOf(c: ErrorCase, base: string): Request {
  const headers = new Headers();
  const given = { "x-api-key": KEY, ...c.headers };
  for (const [name, value] of Object.entries(given)) if (value !== null) headers.set(name, value);
  return new Request(base + c.path, { method: c.method, headers, ...(c.body !== undefined ? { body: c.body } : {}) });
}
