// The MCP server as an agent meets it: the SDK's Client over an in-memory transport, the server's
// DeploymentsClient answered by an in-process simulator. tools/list (its size, schemas and hints),
// every read checked against its output schema, deploy to DEPLOYED with progress, a failed revision,
// rollback, waiting, cancellation, errors an agent can fix, secrets and the key kept out, read-only.
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SEED_IDS } from "../../src/simulator/core/index.js";
import { API_KEY, type Connected, connect, textOf } from "./support.js";

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);

const DEPLOYMENT = SEED_IDS.deployment_id;
const WRITES = ["deploy", "rollback", "update_listener"];
const READS = [
  "list_deployments",
  "get_deployment",
  "list_revisions",
  "get_revision",
  "wait_for_revision",
  "list_listeners",
  "list_oauth_providers",
  "list_agent_connections",
  "list_repositories",
];

type Result = Awaited<ReturnType<Connected["mcp"]["callTool"]>>;

let connected: Connected;
let tools: Awaited<ReturnType<Connected["mcp"]["listTools"]>>["tools"];
const call = (name: string, args: Record<string, unknown> = {}, options = {}) => connected.mcp.callTool({ name, arguments: args }, undefined, options);

/** The result's structuredContent, after checking it against the tool's output schema and the text copy. */
function data(name: string, result: Result): Record<string, unknown> {
  const tool = tools.find((t) => t.name === name)!;
  const validate = ajv.compile(tool.outputSchema!);
  expect(validate(result.structuredContent), `${name}: ${ajv.errorsText(validate.errors)}`).toBe(true);
  const texts = (result.content as { text: string }[]).map((c) => c.text);
  expect(texts.map((t) => JSON.parse(t.startsWith("{") ? t : "null")).filter(Boolean)).toContainEqual(result.structuredContent);
  return result.structuredContent as Record<string, unknown>;
}

beforeAll(async () => {
  connected = await connect();
  tools = (await connected.mcp.listTools()).tools;
});
afterAll(() => connected.close());

describe("tools/list", () => {
  it("is the curated set, within 32 KB of JSON", async () => {
    expect(tools.map((t) => t.name).sort()).toEqual([...READS, ...WRITES].sort());
    const bytes = Buffer.byteLength(JSON.stringify(await connected.mcp.listTools()));
    console.log(`tools/list: ${tools.length} tools, ${bytes} bytes of JSON`);
    expect(bytes).toBeLessThanOrEqual(32 * 1024);
  });

  it.each([...READS, ...WRITES])("%s has a title, a description to act on, object schemas that compile, and its hints", (name) => {
    const tool = tools.find((t) => t.name === name)!;
    expect(tool.title).toBeTruthy();
    expect(tool.description!.length).toBeGreaterThan(120);
    expect(tool.inputSchema).toMatchObject({ type: "object", additionalProperties: false });
    expect(tool.outputSchema).toMatchObject({ type: "object" });
    ajv.compile(tool.inputSchema);
    ajv.compile(tool.outputSchema!);
    if (WRITES.includes(name)) {
      expect(tool.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: expect.any(Boolean), idempotentHint: expect.any(Boolean) });
    } else {
      expect(tool.annotations?.readOnlyHint).toBe(true);
    }
    // The key and the tenant come from the server's configuration, never from an argument.
    expect(Object.keys(tool.inputSchema.properties ?? {}).filter((p) => /key|tenant|auth/i.test(p))).toEqual([]);
  });

  it("takes the API's own parameter names", () => {
    const props = (name: string) => Object.keys(tools.find((t) => t.name === name)!.inputSchema.properties ?? {});
    expect(props("list_deployments")).toEqual(expect.arrayContaining(["name_contains", "status", "deployment_type", "limit", "offset"]));
    expect(props("list_revisions")).toEqual(expect.arrayContaining(["deployment_id", "status", "limit", "offset"]));
    expect(props("deploy")).toEqual(
      expect.arrayContaining(["deployment_id", "source_revision_config", "source_config", "secrets", "revision_source", "wait", "timeout_seconds"]),
    );
    expect(props("rollback")).toEqual(expect.arrayContaining(["deployment_id", "revision_id", "wait"]));
  });
});

describe("reads answer what their output schema says", () => {
  it("deployments and revisions", async () => {
    const page = data("list_deployments", await call("list_deployments", { limit: 3, status: "READY" }));
    expect((page.resources as unknown[]).length).toBeGreaterThan(0);
    const deployment = data("get_deployment", await call("get_deployment", { deployment_id: DEPLOYMENT }));
    expect(deployment.id).toBe(DEPLOYMENT);
    const revisions = data("list_revisions", await call("list_revisions", { deployment_id: DEPLOYMENT, status: ["DEPLOYED"], limit: 5 }));
    for (const r of revisions.resources as { status: string }[]) expect(r.status).toBe("DEPLOYED");
    const revision = data("get_revision", await call("get_revision", { deployment_id: DEPLOYMENT, revision_id: SEED_IDS.revision_id }));
    expect(revision.id).toBe(SEED_IDS.revision_id);
    const waited = data("wait_for_revision", await call("wait_for_revision", { deployment_id: DEPLOYMENT, revision_id: SEED_IDS.revision_id }));
    expect(waited).toMatchObject({ revision_id: SEED_IDS.revision_id, ended: true });
  });

  it("listeners, providers, connections and repositories of both integration kinds", async () => {
    expect((data("list_listeners", await call("list_listeners")).resources as unknown[]).length).toBeGreaterThan(0);
    expect((data("list_oauth_providers", await call("list_oauth_providers")).providers as unknown[]).length).toBeGreaterThan(0);
    expect(data("list_agent_connections", await call("list_agent_connections", { agent_id: SEED_IDS.agent_id })).data).toBeInstanceOf(Array);
    const scm = data("list_repositories", await call("list_repositories", { integration_id: SEED_IDS.scm_integration_id }));
    expect((scm.repositories as unknown[]).length).toBeGreaterThan(0);
    const forge = data("list_repositories", await call("list_repositories", { integration_id: SEED_IDS.forge_integration_id, integration_kind: "forge" }));
    expect((forge.repositories as unknown[]).length).toBeGreaterThan(0);
  });

  it("secret values come back as ***", async () => {
    const page = data("list_deployments", await call("list_deployments", { limit: 20 }));
    const secrets = (page.resources as { secrets: { value: string }[] }[]).flatMap((d) => d.secrets);
    expect(secrets.length).toBeGreaterThan(0);
    for (const secret of secrets) expect(secret.value).toBe("***");
  });
});

describe("deploy", () => {
  it("patches, reports each state as progress and ends with the DEPLOYED revision", async () => {
    const progress: { progress: number; message?: string }[] = [];
    const started = performance.now();
    const result = await call(
      "deploy",
      { deployment_id: DEPLOYMENT, source_revision_config: { repo_ref: "release/mcp" } },
      { onprogress: (p: { progress: number; message?: string }) => progress.push(p) },
    );
    console.log(`deploy to DEPLOYED through MCP (in-process simulator, 10 ms steps, 5 ms polls): ${Math.round(performance.now() - started)} ms`);
    expect(result.isError, textOf(result)).toBeFalsy();
    const outcome = data("deploy", result);
    expect(outcome).toMatchObject({ deployment_id: DEPLOYMENT, status: "DEPLOYED", ended: true });
    expect((outcome.deployment as { latest_revision_id: string }).latest_revision_id).toBe(outcome.revision_id);
    expect(progress.at(-1)?.message).toBe("DEPLOYED");
    expect(progress.map((p) => p.progress)).toEqual([...progress.map((p) => p.progress)].sort((a, b) => a - b));
    expect(new Set(progress.map((p) => p.message)).size).toBe(progress.length);
    expect(textOf(result)).toMatch(/is DEPLOYED/);
  });

  it("a revision that fails is a result saying which state it ended in (isError, with the revision)", async () => {
    await connected.sim.failNext(DEPLOYMENT, "BUILD_FAILED");
    const result = await call("deploy", { deployment_id: DEPLOYMENT, source_revision_config: { repo_ref: "broken" } });
    expect(result.isError).toBe(true);
    expect(data("deploy", result)).toMatchObject({ status: "BUILD_FAILED", ended: true });
    expect(textOf(result)).toMatch(/ended BUILD_FAILED/);
  });

  it("wait: false answers once the revision exists; wait_for_revision follows it to the end", async () => {
    const created = data(
      "deploy",
      await call("deploy", { deployment_id: DEPLOYMENT, source_revision_config: { image_uri: null, repo_ref: "next" }, wait: false }),
    );
    expect(created.revision_id).toEqual(expect.any(String));
    const waited = await call("wait_for_revision", { deployment_id: DEPLOYMENT, revision_id: created.revision_id });
    expect(data("wait_for_revision", waited)).toMatchObject({ revision_id: created.revision_id, status: "DEPLOYED" });
  });

  it("secrets sent are never repeated in the answer", async () => {
    const value = "sk-mcp-secret-value-0123";
    const result = await call("deploy", { deployment_id: DEPLOYMENT, secrets: [{ name: "OPENAI_API_KEY", value }] });
    expect(data("deploy", result)).toMatchObject({ status: "DEPLOYED" });
    expect(JSON.stringify(result)).not.toContain(value);
  });

  it("a patch that would create no revision is refused before anything is sent", async () => {
    const before = data("get_deployment", await call("get_deployment", { deployment_id: DEPLOYMENT }));
    const result = await call("deploy", { deployment_id: DEPLOYMENT, source_config: { build_on_push: true } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/source_revision_config.*nothing to deploy/s);
    const after = data("get_deployment", await call("get_deployment", { deployment_id: DEPLOYMENT }));
    expect(after.updated_at).toBe(before.updated_at);
  });

  it("stops waiting when the call is cancelled, and the server answers the next call", async () => {
    const slow = await connect({ stepSeconds: 3600 });
    try {
      const abort = new AbortController();
      const cancelled = slow.mcp.callTool(
        { name: "deploy", arguments: { deployment_id: DEPLOYMENT, source_revision_config: { repo_ref: "slow" } } },
        undefined,
        {
          signal: abort.signal,
          onprogress: () => abort.abort(new Error("the agent changed its mind")),
        },
      );
      await expect(cancelled).rejects.toThrow(/changed its mind/);
      const next = await slow.mcp.callTool({ name: "get_deployment", arguments: { deployment_id: DEPLOYMENT } });
      expect(next.isError).toBeFalsy();
    } finally {
      await slow.close();
    }
  });

  it("a wait that times out answers the revision as last seen and says how to go on", async () => {
    const slow = await connect({ stepSeconds: 3600 });
    try {
      await slow.mcp.listTools();
      const result = await slow.mcp.callTool({
        name: "deploy",
        arguments: { deployment_id: DEPLOYMENT, source_revision_config: { repo_ref: "stuck" }, timeout_seconds: 1 },
      });
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toMatchObject({ status: "CREATING", ended: false });
      expect(textOf(result)).toMatch(/did not end within 1 s.*wait_for_revision/s);
    } finally {
      await slow.close();
    }
  });
});

describe("rollback", () => {
  it("deploys again the newest DEPLOYED revision older than the active one", async () => {
    const first = data("deploy", await call("deploy", { deployment_id: DEPLOYMENT, source_revision_config: { repo_ref: "one" } }));
    const second = data("deploy", await call("deploy", { deployment_id: DEPLOYMENT, source_revision_config: { repo_ref: "two" } }));
    expect(second.status).toBe("DEPLOYED");
    const progress: string[] = [];
    const result = await call("rollback", { deployment_id: DEPLOYMENT }, { onprogress: (p: { message?: string }) => progress.push(String(p.message)) });
    const outcome = data("rollback", result);
    expect(outcome).toMatchObject({ status: "DEPLOYED", target_revision_id: first.revision_id });
    expect(progress.at(-1)).toBe("DEPLOYED");
    const revision = outcome.revision as { source_revision_config: { repo_ref: string } };
    const target = data("get_revision", await call("get_revision", { deployment_id: DEPLOYMENT, revision_id: first.revision_id }));
    const sha = (target.source_revision_config as { repo_commit_sha?: string }).repo_commit_sha;
    expect(revision.source_revision_config.repo_ref).toBe(sha ?? "one");
  });

  it("to a named revision; an unknown one is the service's 404, and nothing is deployed", async () => {
    const named = data("rollback", await call("rollback", { deployment_id: DEPLOYMENT, revision_id: SEED_IDS.revision_id, wait: false }));
    expect(named.target_revision_id).toBe(SEED_IDS.revision_id);
    const before = data("get_deployment", await call("get_deployment", { deployment_id: DEPLOYMENT }));
    const unknown = await call("rollback", { deployment_id: DEPLOYMENT, revision_id: "00000000-0000-4000-8000-000000000000" });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/404/);
    const after = data("get_deployment", await call("get_deployment", { deployment_id: DEPLOYMENT }));
    expect(after.latest_revision_id).toBe(before.latest_revision_id);
  });

  it("with nothing to roll back to, says so and changes nothing", async () => {
    const page = data("list_deployments", await call("list_deployments", { limit: 100 }));
    const idle = (page.resources as { id: string; active_revision_id: string | null }[]).find((d) => d.active_revision_id === null);
    expect(idle, "the seed has a deployment without an active revision").toBeDefined();
    const result = await call("rollback", { deployment_id: idle!.id });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/nothing to roll back from.*Nothing was changed/s);
  });
});

describe("errors an agent can fix", () => {
  it.each([
    ["get_deployment", { deployment_id: "not-a-uuid" }, /deployment_id: must match format "uuid"/],
    ["get_deployment", {}, /deployment_id: is required/],
    ["get_deployment", { deployment_id: DEPLOYMENT, api_key: "x" }, /api_key: is not an argument of get_deployment/],
    ["list_deployments", { limit: 1000 }, /limit: must be <= 100/],
    ["list_deployments", { status: "ready" }, /status: must be one of "AWAITING_DATABASE"/],
    ["deploy", { deployment_id: DEPLOYMENT, source_revision_config: { repo_ref: 5 } }, /source_revision_config\.repo_ref: must be string/],
    ["deploy", { deployment_id: DEPLOYMENT, source_revision_config: { repo_commit_sha: "abc" } }, /source_revision_config\.repo_commit_sha: is read-only/],
    ["deploy", { deployment_id: DEPLOYMENT, secrets: [{ name: "A" }] }, /secrets\[0\]\.value: is required/],
    [
      "deploy",
      { deployment_id: DEPLOYMENT, source_config: { resource_spec: { cpu: 99 } }, revision_source: "scm_host" },
      /source_config\.resource_spec\.cpu: must be <= 8/,
    ],
    ["deploy", { deployment_id: DEPLOYMENT, revision_source: "scm_host", wait: "yes" }, /wait: must be true or false/],
    ["deploy", { deployment_id: DEPLOYMENT, revision_source: "scm_host", timeout_seconds: 0 }, /timeout_seconds: must be a number from 1/],
    ["rollback", { deployment_id: DEPLOYMENT, revision_id: 7 }, /revision_id: must be string/],
    ["update_listener", { listener_id: SEED_IDS.listener_id, compute_type: "ecs" }, /compute_type: is not an argument of update_listener/],
    ["update_listener", { listener_id: SEED_IDS.listener_id, compute_config: { k8s_namespaces: "default" } }, /compute_config\.k8s_namespaces: must be array/],
    ["list_repositories", { integration_id: SEED_IDS.scm_integration_id, integration_kind: "svn" }, /integration_kind: must be one of "scm", "forge"/],
  ])("%s %j names the field and says what is wrong, and sends nothing", async (name, args, message) => {
    const result = await call(name, args);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/invalid arguments, nothing was sent/);
    expect(textOf(result)).toMatch(message);
  });

  it("a 404 from the service is a tool error in the problem detail's words", async () => {
    const result = await call("get_deployment", { deployment_id: "00000000-0000-4000-8000-000000000000" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/answered 404 Not found: .*00000000-0000-4000-8000-000000000000/i);
  });

  it("update_listener changes what it is given and answers the listener", async () => {
    const result = await call("update_listener", { listener_id: SEED_IDS.listener_id, version: "2.1.0" });
    expect(data("update_listener", result)).toMatchObject({ id: SEED_IDS.listener_id, version: "2.1.0" });
  });

  it("an unknown tool is a protocol error that lists the tools", async () => {
    await expect(call("delete_everything")).rejects.toThrow(McpError);
    await expect(call("delete_everything")).rejects.toThrow(/list_deployments/);
    // The code once, as the client's McpError writes it: not "MCP error -32602: MCP error -32602: …".
    await expect(call("delete_everything")).rejects.toThrow(/^MCP error -32602: unknown tool "delete_everything"/);
  });

  it("a key the service refuses is a 401 that never shows the key", async () => {
    const refused = await connect({ apiKeys: ["some-other-key"] });
    try {
      const result = await refused.mcp.callTool({ name: "list_deployments", arguments: {} });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/401/);
      expect(JSON.stringify(result)).not.toContain(API_KEY);
    } finally {
      await refused.close();
    }
  });
});

describe("--read-only", () => {
  it("lists and serves only the tools that change nothing", async () => {
    const readOnly = await connect({ readOnly: true });
    try {
      const listed = (await readOnly.mcp.listTools()).tools;
      expect(listed.map((t) => t.name).sort()).toEqual([...READS].sort());
      for (const tool of listed) expect(tool.annotations?.readOnlyHint).toBe(true);
      await expect(readOnly.mcp.callTool({ name: "deploy", arguments: { deployment_id: DEPLOYMENT, revision_source: "scm_host" } })).rejects.toThrow(
        /read-only/,
      );
      const page = await readOnly.mcp.callTool({ name: "list_deployments", arguments: { limit: 1 } });
      expect(page.isError).toBeFalsy();
    } finally {
      await readOnly.close();
    }
  });
});
