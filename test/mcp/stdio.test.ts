// `dms mcp` as an MCP client starts it: the compiled dist/cli/main.js as a child process, spoken to
// over stdio by the SDK's StdioClientTransport, against a simulator on a free port. Also how it
// starts and ends: a usage error, the SDK missing, and stdin closing.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSimulator, SEED_IDS, startSimulator } from "../../src/simulator/node/index.js";
import { cleanEnv, DMS, dms, jsonLines, startDms } from "../cli/support.js";
import { expectStatesInOrder, textOf } from "./support.js";

/** The params of a hand-written initialize request, for the tests that speak raw JSON-RPC. */
const INITIALIZE = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } };

const KEY = "stdio-test-key-4b1e";
let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, stepSeconds: 0.02, quiet: true });
});
afterAll(() => sim?.close());

async function startMcp(args: string[] = []) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [DMS, "mcp", "--interval", "10ms", ...args],
    env: cleanEnv({ DMS_BASE_URL: sim.url, DMS_API_KEY: KEY }) as Record<string, string>,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  const client = new Client({ name: "dms-stdio-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

describe("dms mcp over stdio", () => {
  it("deploys to DEPLOYED with progress, and never shows the key", async () => {
    const { client, stderr } = await startMcp();
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toContain("deploy");
      const messages: string[] = [];
      const started = performance.now();
      const result = await client.callTool(
        { name: "deploy", arguments: { deployment_id: SEED_IDS.deployment_id, source_revision_config: { repo_ref: "stdio" } } },
        undefined,
        { onprogress: (p) => messages.push(String(p.message)) },
      );
      console.log(
        `deploy to DEPLOYED through dms mcp over stdio (simulator on a port, 20 ms steps, 10 ms polls): ${Math.round(performance.now() - started)} ms`,
      );
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ status: "DEPLOYED", ended: true });
      expectStatesInOrder(messages);
      expect(stderr()).toMatch(/dms mcp: serving the tools of http:\/\/127\.0\.0\.1:\d+ on stdio/);
      expect(`${stderr()}${JSON.stringify(result)}`).not.toContain(KEY);
    } finally {
      await client.close();
    }
  });

  it("--read-only lists only the tools that change nothing", async () => {
    const { client } = await startMcp(["--read-only"]);
    try {
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toHaveLength(9);
      expect(names).not.toEqual(expect.arrayContaining(["deploy"]));
      expect(names.filter((n) => ["deploy", "rollback", "update_listener"].includes(n))).toEqual([]);
    } finally {
      await client.close();
    }
  });
});

describe("dms mcp starting and ending", () => {
  it("--help shows the flags from the one table, the example and the exit codes", async () => {
    const result = await dms(["mcp", "--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: dms mcp \[flags\]/);
    expect(result.stdout).toMatch(/--read-only[\s\S]*--interval DURATION[\s\S]*--base-url URL/);
    expect(result.stdout).toMatch(/\nExit codes:\n {2}0 /);
  });

  it("ends with 0 when the client closes stdin, having written nothing to stdout", async () => {
    const run = startDms(["mcp"], { DMS_BASE_URL: sim.url, DMS_API_KEY: KEY });
    run.child.stdin.end();
    const result = await run.ended;
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("");
  });

  it("lines that are not JSON-RPC are answered with their error (framing.test.ts has the table), and the next request is answered", async () => {
    const run = startDms(["mcp"], { DMS_BASE_URL: sim.url, DMS_API_KEY: KEY });
    run.child.stdin.write('not json\n{"jsonrpc": "2.0"}\n[1, 2, 3]\n{"jsonrpc":"2.0","id":"x","method":"no/such"}\n');
    run.child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: INITIALIZE })}\n`);
    await run.waitForStdout('"id":1');
    run.child.stdin.end();
    const result = await run.ended;
    expect(result.code).toBe(0);
    const answers = jsonLines(result.stdout);
    expect(answers).toContainEqual(expect.objectContaining({ id: "x", error: expect.objectContaining({ code: -32601 }) }));
    expect(answers.filter((a) => a.id === null).map((a) => a.error.code)).toEqual([-32700, -32600, -32600]);
    expect(answers).toContainEqual(expect.objectContaining({ id: 1, result: expect.objectContaining({ serverInfo: expect.any(Object) }) }));
  });

  it("a message over 1 MiB is answered with an error (its id when it can be seen) and dropped unread; the server goes on", async () => {
    const run = startDms(["mcp"], { DMS_BASE_URL: sim.url, DMS_API_KEY: KEY });
    run.child.stdin.on("error", () => {});
    run.child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: INITIALIZE })}\n`);
    run.child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
    const huge = "x".repeat(12 * 1024 * 1024);
    // The SDK's client writes the id last; 12 MB is past the SDK reader's own 10 MB, which used to end the session.
    const call = (id: unknown, deploymentId: string) =>
      `${JSON.stringify({ method: "tools/call", params: { name: "get_deployment", arguments: { deployment_id: deploymentId } }, jsonrpc: "2.0", id })}\n`;
    run.child.stdin.write(call(2, huge));
    run.child.stdin.write(`{"jsonrpc":"2.0","id":"three","method":"ping","params":{"pad":"${"y".repeat(2 * 1024 * 1024)}"}}\n`);
    run.child.stdin.write(call(4, SEED_IDS.deployment_id));
    await run.waitForStdout('"id":4', 20_000);
    run.child.stdin.end();
    const result = await run.ended;
    expect(result.code).toBe(0);
    const answers = jsonLines(result.stdout);
    expect(answers).toContainEqual({ jsonrpc: "2.0", id: 2, error: { code: -32600, message: expect.stringContaining("larger than 1048576 bytes") } });
    expect(answers).toContainEqual(expect.objectContaining({ id: "three", error: expect.objectContaining({ code: -32600 }) }));
    expect(answers.find((a) => a.id === 4)?.result?.structuredContent?.id).toBe(SEED_IDS.deployment_id);
    expect(result.stderr).toContain("dms mcp: a message larger than 1048576 bytes (1 MiB) was dropped unread");
  });

  it("without DMS_BASE_URL is a usage error (2) naming it, before anything starts", async () => {
    const result = await dms(["mcp"], { DMS_API_KEY: KEY });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/DMS_BASE_URL/);
    expect(result.stdout).toBe("");
  });

  it("without the SDK installed says how to install it in one line (exit 1)", async () => {
    // A resolve hook that makes the SDK a package Node cannot find, as in a project without it.
    const hooks = `export async function resolve(specifier, context, next) {
  if (specifier.startsWith("@modelcontextprotocol/sdk")) {
    const error = new Error("Cannot find package '@modelcontextprotocol/sdk' imported from " + context.parentURL);
    error.code = "ERR_MODULE_NOT_FOUND";
    throw error;
  }
  return next(specifier, context);
}`;
    const register = `import { register } from "node:module"; register("data:text/javascript,${encodeURIComponent(hooks)}");`;
    const { execFile } = await import("node:child_process");
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        ["--import", `data:text/javascript,${encodeURIComponent(register)}`, DMS, "mcp"],
        { env: cleanEnv({ DMS_BASE_URL: sim.url, DMS_API_KEY: KEY }) },
        (_error, stdout, stderr) => resolve({ code: child.exitCode, stdout, stderr }),
      );
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr.trim().split("\n")).toEqual([
      expect.stringMatching(/needs the optional peer @modelcontextprotocol\/sdk.*npm install --save-dev @modelcontextprotocol\/sdk/),
    ]);
  });
});
