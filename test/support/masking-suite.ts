// The one masking rule (src/shared/mask.ts), generated across both surfaces that print data: every
// MCP tool (the SDK's client in memory against the simulator; each structuredContent checked
// against the tool's output schema with ajv) and every dms command that prints data (in-process,
// against the same simulator over HTTP), with the API key and a secret set, in turn, to each enum
// value of the document and each string of the simulator's seed. For each:
// - every MCP result validates and every --json line parses;
// - no data value changes: the answer is the one a neutral key gives, byte for byte (new revision
//   ids, which are random, put aside);
// - where the service quotes the key or the secret back (a stand-in deployment whose every answer
//   is a problem repeating the request's key and secrets), the quote is *** in every text.
//
// The product (about 180 values x 2 roles x 20 surfaces) is sampled by a plan: the fast lane
// (test/mcp/masking.test.ts) runs a sample, the check lane (test/check/mcp/masking.test.ts) every
// enum value through every tool and command and every seed string through one of each in turn.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDeploymentsClient } from "../../src/client/client.js";
import type { Io } from "../../src/cli/output.js";
import { createMcpServer } from "../../src/mcp/index.js";
import { headerValueProblem } from "../../src/shared/header-value.js";
import { Masker } from "../../src/shared/mask.js";
import { createSimulator, SEED_IDS, type Simulator } from "../../src/simulator/core/index.js";
import { seedState } from "../../src/simulator/core/seed.js";
import document from "../../generated/openapi.json" with { type: "json" };

const NOW = Date.parse("2026-11-27T12:00:00.000Z");
const SEED_DEPLOYMENTS = 4;
const NEUTRAL_KEY = "neutral-key-7c1d";
/** A deployment the stand-in service answers for with a problem that quotes the request back. */
const QUOTING = "0d0e0a0d-0000-4000-8000-00000000c0de";
const DEPLOYMENT = SEED_IDS.deployment_id;
const REVISION = SEED_IDS.revision_id;

/** Each string enum value of the document, once. */
function enumValues(): string[] {
  const found = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node !== null && typeof node === "object") {
      const values = (node as { enum?: unknown }).enum;
      if (Array.isArray(values)) for (const v of values) if (typeof v === "string") found.add(v);
      Object.values(node).forEach(visit);
    }
  };
  visit(document);
  return [...found];
}

/** Each string value of the seed the simulator here starts from, once. */
function seedStrings(): string[] {
  const found = new Set<string>();
  const visit = (v: unknown): void => {
    if (typeof v === "string") found.add(v);
    else if (v instanceof Map) for (const x of v.values()) visit(x);
    else if (Array.isArray(v)) v.forEach(visit);
    else if (v !== null && typeof v === "object") Object.values(v).forEach(visit);
  };
  visit(seedState(SEED_DEPLOYMENTS, NOW));
  return [...found];
}

const ENUMS = enumValues();
// A value a header cannot carry cannot be an API key (the client refuses it); none of the seed's are such.
const VALUES = [...new Set([...ENUMS, ...seedStrings()])].filter((v) => v !== "" && headerValueProblem(v) === undefined);

/** The service: a fresh simulator per call (the same state and clock for every value), and the stand-in that quotes the request back for QUOTING. */
let sim: Simulator;
const freshSimulator = () => {
  sim = createSimulator({ stepSeconds: 3600, seedDeployments: SEED_DEPLOYMENTS, now: () => NOW });
};
async function service(request: Request): Promise<Response> {
  if (!request.url.includes(QUOTING)) return sim.fetch(request);
  const key = request.headers.get("x-api-key") ?? "";
  const body = request.method === "PATCH" ? ((await request.json()) as { secrets?: { value: string }[] }) : {};
  const secrets = (body.secrets ?? []).map((s) => s.value);
  const quote = [key, ...secrets].map((v) => `«${v}»`).join(" and ");
  const problem = {
    type: "about:blank",
    title: "Unprocessable Content",
    status: 422,
    detail: `refused ${quote}`,
    errors: [{ pointer: "/secrets/0/value", detail: `${quote} may not be used`, code: "refused" }],
    request: { "X-Api-Key": key, [key]: "quoted as a name" },
  };
  return new Response(JSON.stringify(problem), { status: 422, headers: { "content-type": "application/problem+json" } });
}

/** The quote in a text: it must be masked, never there as sent. */
function expectQuoteMasked(text: string, value: string, label: string): void {
  expect(text, label).toContain("«***»");
  expect(text, label).not.toContain(`«${value}»`);
}

/** New revision ids (and the commit shas made from them) are random: each one the seed does not hold is put aside. */
const SEEDED = new Set(seedStrings());
function stable(text: string): string {
  return text
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => (SEEDED.has(id) || id === QUOTING ? id : "<new>"))
    .replace(/\b[0-9a-f]{40}\b/g, (sha) => (SEEDED.has(sha) ? sha : "<sha>"))
    .replace(/"elapsed_ms":\d+/g, '"elapsed_ms":0')
    .replace(/after \d+(\.\d+)?s/g, "after 0s")
    .replace(/\| elapsed \| [^|]*\|/g, "| elapsed | 0s |");
}

// ---- MCP ----

type ToolCall = { name: string; arguments: Record<string, unknown>; writes?: boolean };
const TOOL_CALLS: ToolCall[] = [
  { name: "list_deployments", arguments: { limit: 10 } },
  { name: "get_deployment", arguments: { deployment_id: DEPLOYMENT } },
  { name: "list_revisions", arguments: { deployment_id: DEPLOYMENT } },
  { name: "get_revision", arguments: { deployment_id: DEPLOYMENT, revision_id: REVISION } },
  { name: "wait_for_revision", arguments: { deployment_id: DEPLOYMENT, revision_id: REVISION, timeout_seconds: 1 } },
  { name: "list_listeners", arguments: {} },
  { name: "list_oauth_providers", arguments: {} },
  { name: "list_agent_connections", arguments: { agent_id: SEED_IDS.agent_id } },
  { name: "list_repositories", arguments: { integration_id: SEED_IDS.scm_integration_id } },
  { name: "deploy", arguments: { deployment_id: DEPLOYMENT, source_revision_config: { repo_ref: "main" }, wait: false }, writes: true },
  { name: "rollback", arguments: { deployment_id: DEPLOYMENT, wait: false }, writes: true },
  { name: "update_listener", arguments: { listener_id: SEED_IDS.listener_id, version: "2.0.0" }, writes: true },
];

/**
 * Each tool's output schema, compiled once with ajv from what tools/list says (as the SDK's client
 * checks structuredContent, which it does only after its own tools/list: 70 ms a client, so the
 * clients of the values below skip it and are checked here instead).
 */
const outputValidators = new Map<string, ValidateFunction>();
const ajv = new (Ajv2020 as unknown as typeof Ajv2020.default)({ strict: false, allErrors: true });
(addFormats as unknown as typeof addFormats.default)(ajv);

function expectValid(name: string, structured: unknown): void {
  const validate = outputValidators.get(name);
  if (!validate) throw new Error(`no output schema for ${name}`);
  expect(validate(structured), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
}

async function mcpWith(key: string, listTools = false): Promise<{ mcp: Client; close: () => Promise<void> }> {
  const client = createDeploymentsClient({ baseUrl: "https://api.example.test", apiKey: key, fetch: service as typeof fetch, retry: { retries: 0 } });
  const server = createMcpServer({ client, pollIntervalMs: 5, redact: [key] });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const mcp = new Client({ name: "masking-test", version: "1.0.0" });
  await Promise.all([server.connect(serverSide), mcp.connect(clientSide)]);
  if (listTools) {
    // The SDK's client checks structuredContent against the output schemas it learns here (ajv).
    for (const tool of (await mcp.listTools()).tools) if (tool.outputSchema) outputValidators.set(tool.name, ajv.compile(tool.outputSchema));
  }
  return { mcp, close: () => mcp.close() };
}

/** One call as text: the result whole (structured content and every text block), with new ids put aside. */
async function callTool(mcp: Client, call: ToolCall, secret?: string): Promise<string> {
  freshSimulator();
  const args = secret === undefined ? call.arguments : { ...call.arguments, secrets: [{ name: "S", value: secret }] };
  const result = await mcp.callTool({ name: call.name, arguments: args });
  const blocks = (result.content as { type: string; text: string }[]).map((b) => b.text);
  if (result.structuredContent !== undefined) {
    expect(blocks.at(-1)).toBe(JSON.stringify(result.structuredContent));
    expectValid(call.name, result.structuredContent);
  }
  return stable(JSON.stringify(result));
}

// ---- dms ----

type Command = { args: string[]; writes?: boolean; secrets?: boolean };
const COMMANDS: Command[] = [
  { args: ["deployments", "--json"] },
  { args: ["deployments"] },
  { args: ["revisions", DEPLOYMENT, "--json"] },
  { args: ["revisions", DEPLOYMENT] },
  { args: ["wait", DEPLOYMENT, REVISION, "--json"] },
  { args: ["deploy", DEPLOYMENT, "--ref", "main", "--no-wait", "--json"], writes: true, secrets: true },
  { args: ["deploy", DEPLOYMENT, "--ref", "main", "--no-wait"], writes: true, secrets: true },
  { args: ["rollback", DEPLOYMENT, "--no-wait", "--json"], writes: true },
];

let http: Server;
let baseUrl: string;
let work: string;
let runs = 0;

const RUNNERS: Record<string, () => Promise<{ run: (args: string[], io: Io) => Promise<number> }>> = {
  deployments: () => import("../../src/cli/commands/deployments.js"),
  revisions: () => import("../../src/cli/commands/revisions.js"),
  wait: () => import("../../src/cli/commands/wait.js"),
  deploy: () => import("../../src/cli/commands/deploy.js"),
  rollback: () => import("../../src/cli/commands/rollback.js"),
};

/** A dms command run in-process, on GitHub Actions (outputs, summary, annotations): everything it wrote, as text. */
async function dms(command: Command, key: string, secret?: string): Promise<string> {
  freshSimulator();
  const [name, ...rest] = command.args;
  const args = secret === undefined ? rest : [...rest, "--secret", `S=${secret}`];
  const files = { GITHUB_OUTPUT: join(work, `out-${runs}`), GITHUB_STEP_SUMMARY: join(work, `summary-${runs++}`) };
  for (const file of Object.values(files)) writeFileSync(file, "");
  let stdout = "";
  let stderr = "";
  const io: Io = {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    env: { DMS_BASE_URL: baseUrl, DMS_API_KEY: key, GITHUB_ACTIONS: "true", ...files },
    redactor: new Masker(),
  };
  const code = await (await RUNNERS[name!]!()).run(args, io);
  if (args.includes("--json")) for (const line of stdout.trimEnd().split("\n")) expect(() => JSON.parse(line), line).not.toThrow();
  // The runner is told each value to hide in its log: that line names the key by design.
  const told = stderr
    .split("\n")
    .filter((l) => !l.startsWith("::add-mask::"))
    .join("\n");
  return stable(`exit ${code}\n${stdout}\n${told}\n${readFileSync(files.GITHUB_OUTPUT, "utf8")}\n${readFileSync(files.GITHUB_STEP_SUMMARY, "utf8")}`);
}

/**
 * Which values go through which surfaces. `everySurface`: the values that run as the key through
 * every tool and every command; each other value runs through one tool and one command in turn.
 * `stride`: every how-many-th of the other values runs (1: all). Every value that runs is also the
 * secret of a deploy, and is quoted back by the service in both roles.
 */
export interface MaskingPlan {
  everySurface: (value: string) => boolean;
  stride: number;
}

/** The enum values of the document and the strings of the seed, as keys and secrets. */
export const MASKING_VALUES: { enums: readonly string[]; all: readonly string[] } = { enums: ENUMS, all: VALUES };

export function maskingSuite(title: string, plan: MaskingPlan): void {
  const chosen = VALUES.filter((value, i) => plan.everySurface(value) || i % plan.stride === 0);

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "dms-masking-"));
    freshSimulator();
    http = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      const answer = await service(new Request(new URL(req.url ?? "/", "http://127.0.0.1"), { method: req.method, headers, body }));
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => http?.close(resolve));
    rmSync(work, { recursive: true, force: true });
  });

  describe(title, () => {
    it("covers the document's enums and the seed", () => {
      expect(ENUMS).toEqual(expect.arrayContaining(["dev", "prod", "DEPLOYED", "READY", "scm_host"]));
      expect(VALUES.length).toBeGreaterThan(100);
    });

    it("MCP: every result validates, the data is the neutral key's, and a quoted key or secret is ***", async () => {
      const baseline = await mcpWith(NEUTRAL_KEY, true);
      expect(outputValidators.size).toBe(TOOL_CALLS.length);
      const expected = new Map<string, string>();
      for (const call of TOOL_CALLS) expected.set(call.name, await callTool(baseline.mcp, call));
      const deployCall = TOOL_CALLS.find((c) => c.name === "deploy")!;
      const withSecret = await callTool(baseline.mcp, deployCall, "neutral-secret");
      // Secrets are per call: one client with the neutral key serves every value as a secret.
      const neutral = baseline;
      for (const [i, value] of chosen.entries()) {
        // The value as the key: every tool for an enum value, one in turn for a seed string.
        const asKey = await mcpWith(value);
        const calls = plan.everySurface(value) ? TOOL_CALLS : [TOOL_CALLS[i % TOOL_CALLS.length]!];
        for (const call of calls) expect(await callTool(asKey.mcp, call), `key ${value}: ${call.name}`).toBe(expected.get(call.name));
        const refused = await asKey.mcp.callTool({ name: "get_deployment", arguments: { deployment_id: QUOTING } });
        expect(refused.isError).toBe(true);
        expectQuoteMasked(JSON.stringify(refused), value, `key ${value} quoted back`);
        await asKey.close();
        // The value as a secret of a deploy: the data is the same, and a quote of it is masked.
        const seen = await callTool(neutral.mcp, deployCall, value);
        expect(seen, `secret ${value}`).toBe(withSecret);
        const quoted = await neutral.mcp.callTool({
          name: "deploy",
          arguments: { deployment_id: QUOTING, source_revision_config: { repo_ref: "main" }, secrets: [{ name: "S", value }], wait: false },
        });
        expectQuoteMasked(JSON.stringify(quoted), value, `secret ${value} quoted back`);
      }
      await baseline.close();
    }, 60_000);

    it("dms: every --json line parses, the output is the neutral key's, and a quoted key or secret is ***", async () => {
      const expected = new Map<Command, string>();
      for (const command of COMMANDS) expected.set(command, await dms(command, NEUTRAL_KEY));
      const secretCommands = COMMANDS.filter((c) => c.secrets);
      const withSecret = new Map<Command, string>();
      for (const command of secretCommands) withSecret.set(command, await dms(command, NEUTRAL_KEY, "neutral-secret"));
      const quoting: Command = { args: ["deploy", QUOTING, "--ref", "main", "--json"] };
      for (const [i, value] of chosen.entries()) {
        const commands = plan.everySurface(value) ? COMMANDS : [COMMANDS[i % COMMANDS.length]!];
        for (const command of commands) expect(await dms(command, value), `key ${value}: ${command.args.join(" ")}`).toBe(expected.get(command));
        const command = secretCommands[i % secretCommands.length]!;
        expect(await dms(command, NEUTRAL_KEY, value), `secret ${value}: ${command.args.join(" ")}`).toBe(withSecret.get(command));
        expectQuoteMasked(await dms(quoting, value), value, `key ${value} quoted back`);
        expectQuoteMasked(await dms({ ...quoting, args: quoting.args.slice(0, -1) }, NEUTRAL_KEY, value), value, `secret ${value} quoted back`);
      }
    }, 60_000);
  });
}
