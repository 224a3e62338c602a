// Bad options fail at once with a TypeError that names the option, before any request is sent:
// createDeploymentsClient's, and waitForRevision's and deployRevision's own.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createDeploymentsClient,
  type DeploymentsClientOptions,
  deployRevision,
  unwrap,
  waitForRevision,
  type WaitForRevisionOptions,
} from "../../src/index.js";
import { type LocalServer, sendJson, startLocalServer } from "./local-server.js";

let server: LocalServer;
beforeAll(async () => {
  server = await startLocalServer((_req, res) => sendJson(res, 200, { resources: [], offset: 0 }));
});
afterAll(async () => {
  await server.close();
});

const valid: DeploymentsClientOptions = { baseUrl: "http://127.0.0.1:4010", apiKey: "k" };

// [the option as named in the message, the options to pass]
const badClientOptions: [string, Record<string, unknown>][] = [
  ["baseUrl", { baseUrl: "" }],
  ["baseUrl", { baseUrl: "api.example.com" }],
  ["baseUrl", { baseUrl: "/v2" }],
  ["baseUrl", { baseUrl: "ftp://api.example.com" }],
  ["baseUrl", { baseUrl: undefined }],
  ["baseUrl", { baseUrl: 4010 }],
  ["baseUrl", { baseUrl: "http://user:hunter2@127.0.0.1:4010" }],
  ["baseUrl", { baseUrl: "http://127.0.0.1:4010/?key=1" }],
  // An empty query or fragment: the path would be appended after it.
  ["baseUrl", { baseUrl: "http://127.0.0.1:4010/?" }],
  ["baseUrl", { baseUrl: "http://127.0.0.1:4010#" }],
  ["baseUrl", { baseUrl: "http://127.0.0.1:4010/api?#" }],
  // Ports fetch never connects to (the Fetch standard's bad ports): a TypeError naming baseUrl, not a network failure.
  ["baseUrl", { baseUrl: "http://127.0.0.1:22" }],
  ["baseUrl", { baseUrl: "https://api.example.com:6000/v2" }],
  // Port 0: what a server is given to pick a free port; nothing is ever reached on it.
  ["baseUrl", { baseUrl: "http://127.0.0.1:0" }],
  ["apiKey", { apiKey: "" }],
  ["apiKey", { apiKey: "   " }],
  ["apiKey", { apiKey: 42 }],
  ["tenantId", { tenantId: "" }],
  ["tenantId", { tenantId: 7 }],
  ["fetch", { fetch: "fetch" }],
  ["timeoutMs", { timeoutMs: 0 }],
  ["timeoutMs", { timeoutMs: -1 }],
  ["timeoutMs", { timeoutMs: Number.NaN }],
  ["timeoutMs", { timeoutMs: Number.POSITIVE_INFINITY }],
  ["timeoutMs", { timeoutMs: 2 ** 31 }],
  ["timeoutMs", { timeoutMs: "1000" }],
  ["maxResponseBytes", { maxResponseBytes: 0 }],
  ["maxResponseBytes", { maxResponseBytes: -1 }],
  ["maxResponseBytes", { maxResponseBytes: 1.5 }],
  ["maxResponseBytes", { maxResponseBytes: Number.NaN }],
  ["maxResponseBytes", { maxResponseBytes: Number.POSITIVE_INFINITY }],
  ["maxResponseBytes", { maxResponseBytes: "1048576" }],
  ["retry", { retry: null }],
  ["retry", { retry: 3 }],
  ["retry", { retry: "3" }],
  ["retry", { retry: [3] }],
  ["retry.retries", { retry: { retries: Number.NaN } }],
  ["retry.retries", { retry: { retries: -1 } }],
  ["retry.retries", { retry: { retries: 1.5 } }],
  ["retry.retries", { retry: { retries: Number.POSITIVE_INFINITY } }],
  ["retry.retries", { retry: { retries: "3" } }],
  ["retry.minDelayMs", { retry: { minDelayMs: -1 } }],
  ["retry.minDelayMs", { retry: { minDelayMs: Number.NaN } }],
  ["retry.minDelayMs", { retry: { minDelayMs: Number.POSITIVE_INFINITY } }],
  ["retry.maxDelayMs", { retry: { maxDelayMs: Number.NaN } }],
  ["retry.maxDelayMs", { retry: { maxDelayMs: -5 } }],
  ["retry.maxDelayMs", { retry: { maxDelayMs: Number.POSITIVE_INFINITY } }],
];

describe("createDeploymentsClient options", () => {
  for (const [name, bad] of badClientOptions) {
    const shown = JSON.stringify(bad, (_k, v) => (typeof v === "number" && !Number.isFinite(v) ? String(v) : v === undefined ? "undefined" : v));
    it(`${shown} throws a TypeError naming ${name}`, () => {
      const options = { ...valid, ...bad } as DeploymentsClientOptions;
      expect(() => createDeploymentsClient(options)).toThrow(TypeError);
      expect(() => createDeploymentsClient(options)).toThrow(new RegExp(`^createDeploymentsClient: ${name.replace(".", "\\.")} must be `));
    });
  }

  it("a baseUrl with user:password@ is refused without showing the password", () => {
    expect(() => createDeploymentsClient({ ...valid, baseUrl: "http://user:hunter2@127.0.0.1:4010" })).toThrow(/without user:password@/);
    expect(() => createDeploymentsClient({ ...valid, baseUrl: "http://user:hunter2@127.0.0.1:4010" })).not.toThrow(/hunter2/);
  });

  it("a relative baseUrl outside a browser (no globalThis.location) says so", () => {
    expect(globalThis).not.toHaveProperty("location");
    expect(() => createDeploymentsClient({ baseUrl: "/api" })).toThrow(
      /baseUrl must be an absolute http:\/\/ or https:\/\/ URL outside a browser: "\/api" is relative/,
    );
  });

  it("no options object at all is a TypeError", () => {
    expect(() => createDeploymentsClient(undefined as unknown as DeploymentsClientOptions)).toThrow(TypeError);
  });

  it("accepts the edges: no tenantId, retries 0, zero delays, an https URL with a path, undefined for defaults", async () => {
    for (const options of [
      { ...valid, retry: { retries: 0, minDelayMs: 0, maxDelayMs: 0 } },
      { ...valid, baseUrl: "https://api.example.com/prefix", tenantId: "t", timeoutMs: 1 },
      { ...valid, timeoutMs: undefined, tenantId: undefined, retry: { retries: undefined } },
    ]) {
      expect(() => createDeploymentsClient(options)).not.toThrow();
    }
    const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k", retry: { retries: 0, minDelayMs: 0, maxDelayMs: 0 } });
    expect(unwrap(await client.GET("/v2/listeners"))).toEqual({ resources: [], offset: 0 });
  });
});

const badWaitOptions: [string, WaitForRevisionOptions][] = [
  ["timeoutMs", { timeoutMs: 0 }],
  ["timeoutMs", { timeoutMs: Number.NaN }],
  ["timeoutMs", { timeoutMs: -10 }],
  ["timeoutMs", { timeoutMs: Number.POSITIVE_INFINITY }],
  ["intervalMs", { intervalMs: -1 }],
  ["intervalMs", { intervalMs: Number.NaN }],
  ["intervalMs", { intervalMs: Number.POSITIVE_INFINITY }],
];

describe("waitForRevision and deployRevision options", () => {
  const id = "7f1c2d4e-0000-4000-8000-000000000001";
  for (const [name, bad] of badWaitOptions) {
    it(`${name}: ${String(Object.values(bad)[0])} rejects with a TypeError naming it, and sends nothing`, async () => {
      const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "k" });
      const before = server.requests.length;
      await expect(waitForRevision(client, id, id, bad)).rejects.toThrow(new RegExp(`^waitForRevision: ${name} must be `));
      await expect(waitForRevision(client, id, id, bad)).rejects.toBeInstanceOf(TypeError);
      // deployRevision checks before its PATCH: a bad option must not leave an unwatched revision behind.
      await expect(deployRevision(client, id, { source_revision_config: { repo_ref: "main" } }, bad)).rejects.toThrow(
        new RegExp(`^deployRevision: ${name} must be `),
      );
      expect(server.requests.length).toBe(before);
    });
  }
});
