// Generated arguments for every tool, drawn from the tool's own input schema (valid ones) and from
// its argument names with any JSON behind them (mostly invalid ones): no call takes the server down
// or goes unanswered. A call answers a result (the SDK's Client also checks its structuredContent
// against the output schema), an invalid one answers isError with a message, and the server still
// answers afterwards.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SEED_IDS } from "../../src/simulator/core/index.js";
import { arbitraryFor } from "../check/fuzz/schema-arbitrary.js";
import { type Connected, connect, textOf } from "./support.js";

let connected: Connected;
let tools: Awaited<ReturnType<Connected["mcp"]["listTools"]>>["tools"];

beforeAll(async () => {
  connected = await connect();
  tools = (await connected.mcp.listTools()).tools;
});
afterAll(() => connected.close());

/** Ids of the seed, so that drawn calls reach real resources as often as unknown ones. */
const SEEDED: Record<string, string[]> = {
  deployment_id: [SEED_IDS.deployment_id],
  revision_id: [SEED_IDS.revision_id],
  listener_id: [SEED_IDS.listener_id],
  agent_id: [SEED_IDS.agent_id],
  integration_id: [SEED_IDS.scm_integration_id, SEED_IDS.forge_integration_id],
};

function validArguments(schema: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> {
  return fc.tuple(arbitraryFor(schema, { maxDepth: 3 }) as fc.Arbitrary<Record<string, unknown>>, fc.boolean()).map(([args, seeded]) => {
    if (!seeded) return args;
    const out = { ...args };
    for (const [name, ids] of Object.entries(SEEDED)) if (name in out) out[name] = ids[0];
    // A drawn wait could take as long as its timeout on a revision that never ends; these end fast, but keep it short anyway.
    if ("timeout_seconds" in out) out.timeout_seconds = 5;
    return out;
  });
}

function anyArguments(schema: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> {
  const names = [...Object.keys((schema.properties as object) ?? {}), "api_key", "__proto__", "constructor", "x"];
  return fc.dictionary(fc.constantFrom(...names), fc.jsonValue({ maxDepth: 4 }), { maxKeys: 6 });
}

async function stillAnswers(): Promise<void> {
  await connected.mcp.ping();
  const result = await connected.mcp.callTool({
    name: "get_revision",
    arguments: { deployment_id: SEED_IDS.deployment_id, revision_id: SEED_IDS.revision_id },
  });
  expect(result.isError, textOf(result)).toBeFalsy();
}

const NAMES = [
  "list_deployments",
  "get_deployment",
  "list_revisions",
  "get_revision",
  "deploy",
  "rollback",
  "wait_for_revision",
  "list_listeners",
  "update_listener",
  "list_oauth_providers",
  "list_agent_connections",
  "list_repositories",
];

describe("generated arguments never crash the server", () => {
  it("the names cover every tool listed", () => {
    expect(tools.map((t) => t.name).sort()).toEqual([...NAMES].sort());
  });

  it.each(NAMES)("%s: drawn from its input schema, and any JSON under its argument names", async (name) => {
    const schema = tools.find((t) => t.name === name)!.inputSchema as Record<string, unknown>;
    const args = fc.oneof(validArguments(schema), anyArguments(schema));
    await fc.assert(
      fc.asyncProperty(args, async (drawn) => {
        const result = await connected.mcp.callTool({ name, arguments: drawn });
        if (result.isError) expect(textOf(result)).toMatch(new RegExp(`^${name}: `));
        else expect(result.structuredContent).toBeTypeOf("object");
      }),
      { numRuns: 25 },
    );
    await stillAnswers();
  });

  it("a value nested thousands deep is an argument error, not a crash", async () => {
    let deep: unknown = "main";
    for (let i = 0; i < 5000; i++) deep = [deep];
    const result = await connected.mcp.callTool({
      name: "deploy",
      arguments: { deployment_id: SEED_IDS.deployment_id, source_revision_config: { repo_ref: deep } },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/source_revision_config\.repo_ref: must be string/);
    await stillAnswers();
  });
});
