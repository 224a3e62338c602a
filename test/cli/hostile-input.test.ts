// dms with hostile input, table-driven from the commands' own flag tables (src/cli/specs.ts): a
// flag that takes one value given twice, durations that round to nothing, base URLs that fetch
// would refuse or rewrite, and a server whose revision id and status would forge the GitHub job
// summary. In-process (runDms) against a local HTTP server that records what it was sent.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commandFlags } from "../../src/cli/flags.js";
import { COMMANDS } from "../../src/cli/specs.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { createDeploymentsClient } from "../../src/client/client.js";
import { createMcpServer } from "../../src/mcp/index.js";
import { terminalSafe } from "../../src/shared/terminal-text.js";
import { sendJson, sendText, startLocalServer, type LocalServer } from "../client/local-server.js";
import { dmsInProcess as dms } from "./support.js";

const DEPLOYMENT = "6b0d8a52-3c1e-4f7a-9b2d-1e5f3a7c9d01";
const REVISION = "0c6b5e0a-7f6d-4b1e-8a47-3d2f1c9e8b70";
/** A deployment whose new revision's status is made to forge markdown. */
const FORGING = "7b0d8a52-3c1e-4f7a-9b2d-1e5f3a7c9d01";
const CREATED = "8b0d8a52-3c1e-4f7a-9b2d-1e5f3a7c9d01";
const FORGED_ID = "x`|\n### ✅ dms deploy: DEPLOYED\n| status | DEPLOYED |<img src=x>";
/** Revision ids a PATCH answer may hold that are not the document's UUIDs, each the answer for its own deployment. */
const BAD_IDS = new Map<string, unknown>(
  ["..", "", "../../x", 42, FORGED_ID].map((id, i) => [`9b0d8a52-3c1e-4f7a-9b2d-1e5f3a7c9d${String(i).padStart(2, "0")}`, id]),
);
const FORGED_STATUS = "BUILDING\n### ✅ forged [link](https://evil.example) | ![i](x)";

/** Deployments and a revision whose answers quote a value nested too deep (see DEEP_QUOTED). */
const DEEP_PATCH = "ab0d8a52-3c1e-4f7a-9b2d-1e5f3a7c9d01";
const DEEP_ROLLBACK = "ac0d8a52-3c1e-4f7a-9b2d-1e5f3a7c9d01";
const DEEP_STATUS = "ad6b5e0a-7f6d-4b1e-8a47-3d2f1c9e8b70";
const ITEM = `{"id":"${DEPLOYMENT}","name":"n"}`;
/** Deployments whose answer (or whose target revision's) breaks the document where a plan or a rollback reads it. */
const NO_CONFIG = "ae0d8a52-3c1e-4f7a-9b2d-1e5f3a7c9d01";
const STRING_CONFIG = "af0d8a52-3c1e-4f7a-9b2d-1e5f3a7c9d01";
const OBJECT_ACTIVE = "ba0d8a52-3c1e-4f7a-9b2d-1e5f3a7c9d01";
const NO_ID_TARGET = "bb0d8a52-3c1e-4f7a-9b2d-1e5f3a7c9d01";
const NULL_ITEM = "bc0d8a52-3c1e-4f7a-9b2d-1e5f3a7c9d01";
/** A deployment whose new revision is answered without an id or a status; one whose answer has a bidi control and no created_at. */
const BARE_CREATED = "bd0d8a52-3c1e-4f7a-9b2d-1e5f3a7c9d01";
const BIDI_NAME = "be0d8a52-3c1e-4f7a-9b2d-1e5f3a7c9d01";
/** `METHOD path[?name_contains]` → status and body, DEEP standing for 5000 levels of arrays. */
const DEEP_QUOTED = new Map<string, [number, string]>([
  ["GET /v2/deployments?deep-body", [200, "DEEP"]],
  ["GET /v2/deployments?deep-error-body", [500, "DEEP"]],
  ["GET /v2/deployments?deep-offset", [200, `{"resources":[${ITEM},${ITEM}],"offset":DEEP}`]],
  [`GET /v2/deployments/${DEEP_PATCH}`, [200, `{"id":"${DEEP_PATCH}","source":"scm_host","latest_revision_id":"${REVISION}"}`]],
  [`PATCH /v2/deployments/${DEEP_PATCH}`, [200, `{"id":"${DEEP_PATCH}","source":"scm_host","latest_revision_id":DEEP}`]],
  [`GET /v2/deployments/${DEPLOYMENT}/revisions/${DEEP_STATUS}`, [200, `{"id":"${DEEP_STATUS}","status":DEEP}`]],
  [
    `GET /v2/deployments/${DEEP_ROLLBACK}`,
    [200, `{"id":"${DEEP_ROLLBACK}","source":"scm_host","latest_revision_id":"${REVISION}","active_revision_id":"${REVISION}"}`],
  ],
  [`GET /v2/deployments/${DEEP_ROLLBACK}/revisions/${REVISION}`, [200, `{"id":"${REVISION}","status":"DEPLOYED","source_revision_config":DEEP}`]],
  // Off the document where a plan or a rollback reads a deployment or its target (see OFF_DOCUMENT).
  [`GET /v2/deployments/${NO_CONFIG}`, [200, `{"id":"${NO_CONFIG}","source":"scm_host","latest_revision_id":null,"active_revision_id":null}`]],
  [
    `GET /v2/deployments/${STRING_CONFIG}`,
    [200, `{"id":"${STRING_CONFIG}","source":"scm_host","source_revision_config":"x","latest_revision_id":null,"active_revision_id":null}`],
  ],
  [
    `GET /v2/deployments/${OBJECT_ACTIVE}`,
    [200, `{"id":"${OBJECT_ACTIVE}","source":"scm_host","source_revision_config":{},"latest_revision_id":null,"active_revision_id":{}}`],
  ],
  [`GET /v2/deployments/${NO_ID_TARGET}`, [200, `{"id":"${NO_ID_TARGET}","source":"scm_host","latest_revision_id":null,"active_revision_id":null}`]],
  [
    `GET /v2/deployments/${NO_ID_TARGET}/revisions/${REVISION}`,
    [200, `{"status":"DEPLOYED","source":"scm_host","source_revision_config":{"repo_ref":"main"}}`],
  ],
  [
    `GET /v2/deployments/${NULL_ITEM}`,
    [200, `{"id":"${NULL_ITEM}","source":"scm_host","latest_revision_id":"${REVISION}","active_revision_id":"${REVISION}"}`],
  ],
  [`GET /v2/deployments/${NULL_ITEM}/revisions`, [200, `{"resources":[null],"offset":1}`]],
  [`GET /v2/deployments/${BARE_CREATED}`, [200, `{"id":"${BARE_CREATED}","source":"scm_host","latest_revision_id":null}`]],
  [`PATCH /v2/deployments/${BARE_CREATED}`, [200, `{"id":"${BARE_CREATED}","source":"scm_host","latest_revision_id":"${CREATED}"}`]],
  [`GET /v2/deployments/${BARE_CREATED}/revisions/${CREATED}`, [200, "{}"]],
  [`GET /v2/deployments/${BIDI_NAME}`, [200, `{"id":"${BIDI_NAME}","name":"evil\u202egnp.exe"}`]],
]);

let server: LocalServer;
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "dms-hostile-"));
  server = await startLocalServer((req, res) => {
    const path = req.url.pathname;
    if (path.startsWith(`/v2/deployments/${FORGING}/revisions/`)) return sendJson(res, 200, { id: CREATED, status: FORGED_STATUS });
    if (path === `/v2/deployments/${FORGING}`) {
      return sendJson(res, 200, { id: FORGING, source: "scm_host", latest_revision_id: req.method === "PATCH" ? CREATED : REVISION });
    }
    // Data, and an error body, nested 5000 levels deep (10 kB): past where recursion and JSON.stringify give out.
    const deep = `${"[".repeat(5000)}${"]".repeat(5000)}`;
    if (path === "/v2/deployments" && req.url.searchParams.get("name_contains") === "deep") {
      return sendText(res, 200, `{"resources":[{"id":"${DEPLOYMENT}","name":"n","source_config":${deep}}],"offset":1}`, "application/json");
    }
    if (path === "/v2/deployments" && req.url.searchParams.get("name_contains") === "deep-error") {
      return sendText(res, 400, `{"title":"Bad","status":400,"detail":"no","x":${deep}}`, "application/problem+json");
    }
    // A value the client quotes in its own message (a page's offset, a PATCH answer's revision id, a
    // revision's status, a rollback target's source), or a whole body, nested 5000 levels deep.
    const quoted = DEEP_QUOTED.get(`${req.method} ${path}${path === "/v2/deployments" ? `?${req.url.searchParams.get("name_contains")}` : ""}`);
    if (quoted) return sendText(res, quoted[0], quoted[1].replaceAll("DEEP", deep), "application/json");
    const bad = BAD_IDS.get(path.split("/")[3] ?? "");
    if (bad !== undefined && path.includes("/revisions/")) return sendJson(res, 200, { id: bad, status: "DEPLOYED" });
    if (bad !== undefined)
      return sendJson(res, 200, { id: path.split("/")[3], source: "scm_host", latest_revision_id: req.method === "PATCH" ? bad : REVISION });
    sendJson(res, 404, { title: "Not Found", status: 404 });
  });
});
afterAll(async () => {
  await server?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

const env = (extra: Record<string, string> = {}) => ({ DMS_BASE_URL: server.baseUrl, DMS_API_KEY: "env-key", ...extra });

/** A command line of each API command that would run as it stands (ids and the one flag deploy needs). */
const BASE_ARGS: Record<string, string[]> = {
  deploy: ["deploy", DEPLOYMENT, "--ref", "main"],
  wait: ["wait", DEPLOYMENT, REVISION],
  rollback: ["rollback", DEPLOYMENT],
  deployments: ["deployments"],
  revisions: ["revisions", DEPLOYMENT],
  mcp: ["mcp"],
};

async function expectUsageError(args: string[], extraEnv: Record<string, string>, message: RegExp) {
  const sent = server.requests.length;
  const result = await dms(args, env(extraEnv));
  expect(result.code, result.stderr).toBe(2);
  expect(result.stderr).toMatch(message);
  // The tests run at once, and none of them sends anything.
  expect(server.requests.length).toBe(sent);
  return result;
}

describe("a flag that takes one value, given twice, is a usage error (every string flag of every command)", () => {
  const cases = Object.entries(BASE_ARGS).flatMap(([name, args]) =>
    Object.entries(commandFlags(COMMANDS[name as keyof typeof COMMANDS]))
      .filter(([, flag]) => flag.type === "string" && !flag.multiple)
      .map(([flag]) => [name, flag, args] as const),
  );
  it.concurrent.each(cases)("dms %s --%s given twice", async (_name, flag, args) => {
    await expectUsageError([...args, `--${flag}=1s`, `--${flag}`, "2s"], {}, new RegExp(`--${flag} is given more than once`));
  });

  it("a repeatable flag and a switch given twice are not", async () => {
    const result = await dms([...BASE_ARGS.deploy!, "--secret", "A=1", "--secret", "B=2", "--no-wait", "--no-wait"], env());
    expect(result.stderr).not.toMatch(/more than once/);
  });
});

describe("a duration that is not a whole number of milliseconds from 1 up is a usage error naming the flag", () => {
  const durationFlags = Object.entries(BASE_ARGS).flatMap(([name, args]) =>
    Object.entries(commandFlags(COMMANDS[name as keyof typeof COMMANDS]))
      .filter(([, flag]) => flag.placeholder === "DURATION")
      .map(([flag]) => [name, flag, args] as const),
  );
  // Every value on one flag, and on every flag the values each reading got wrong once.
  const values = ["0.1ms", "0.0004s", "0", "-1s", "1e9s", "NaN", "Infinity", "25d", "999999999h", ""];
  const everyFlag = ["0.1ms", "999999999h"];
  const cases = durationFlags.flatMap(([name, flag, args], i) => (i === 0 ? values : everyFlag).map((value) => [name, flag, value, args] as const));
  it.concurrent.each(cases)("dms %s --%s=%j", async (_name, flag, value, args) => {
    await expectUsageError([...args, `--${flag}=${value}`], {}, new RegExp(`--${flag} "[^"]*" is not a duration`));
  });

  it("a value pasted by mistake is cut in the message", async () => {
    const result = await expectUsageError([...BASE_ARGS.wait!, "--timeout", "y".repeat(10_000)], {}, /--timeout "y{80}…" is not a duration/);
    expect(result.stderr.length).toBeLessThan(1000);
  });
});

describe("a base URL that fetch would refuse or rewrite is a usage error naming its source, on every command", () => {
  const urls: [string, RegExp][] = [
    ["http://127.0.0.1:4011?tenant=x", /without \?query or #fragment/],
    ["http://127.0.0.1:4011/#top", /without \?query or #fragment/],
    ["https://api.example.test:22/v2", /port 22 is one of the Fetch standard's "bad ports", such as 22, 25 and 6000, which fetch never connects to/],
    ["http://127.0.0.1:0", /port 0 is not a port a server can be reached on/],
  ];
  const cases = Object.entries(BASE_ARGS).flatMap(([name, args]) => urls.map(([url, message]) => [name, url, args, message] as const));
  it.concurrent.each(cases)("dms %s with %s", async (_name, url, args, message) => {
    await expectUsageError(args, { DMS_BASE_URL: url }, new RegExp(`DMS_BASE_URL ${message.source}|DMS_BASE_URL.*${message.source}`));
    await expectUsageError([...args, "--base-url", url], {}, new RegExp(`--base-url.*${message.source}`));
  });
});

describe("a PATCH answer whose revision id is not a UUID is the service's error (exit 6), on dms and the MCP server alike", () => {
  it.concurrent.each([...BAD_IDS].map(([deployment, id]) => [JSON.stringify(id), deployment] as const))("latest_revision_id %s", async (_shown, deployment) => {
    const result = await dms(["deploy", deployment, "--ref", "main", "--interval", "10ms", "--json"], env());
    expect(result.code, result.stderr).toBe(6);
    const last = JSON.parse(result.stdout.trimEnd().split("\n").at(-1)!);
    expect(last).toMatchObject({ event: "result", revision_id: null, exit_code: 6, error: { kind: "api_error", title: "Invalid response body" } });
    expect(last.error.detail).toMatch(/^the PATCH answer's latest_revision_id .* is not a UUID$/);
    // Nothing to resume, and no read of a path the id would have made.
    expect(last.resume).toBeUndefined();
    expect(server.requests.filter((r) => r.url.pathname.startsWith(`/v2/deployments/${deployment}`)).map((r) => r.method)).toEqual(["GET", "PATCH"]);

    const mcp = await mcpDeploy(deployment);
    expect(mcp.isError).toBe(true);
    expect(mcp.text).toContain(`the service answered 200 Invalid response body: ${terminalSafe(last.error.detail)}`);
  });
});

/** The MCP server's deploy tool against the same server, its text answer. */
function mcpDeploy(deployment: string): Promise<{ isError: boolean; text: string }> {
  return mcpCall("deploy", { deployment_id: deployment, source_revision_config: { repo_ref: "main" } });
}

/** One call of an MCP tool against the same server, its text answer. */
async function mcpCall(tool: string, args: Record<string, unknown>): Promise<{ isError: boolean; text: string }> {
  const client = createDeploymentsClient({ baseUrl: server.baseUrl, apiKey: "env-key", retry: { retries: 0 } });
  const mcpServer = createMcpServer({ client, pollIntervalMs: 5, redact: ["env-key"] });
  const mcp = new Client({ name: "dms-hostile-test", version: "1.0.0" });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await Promise.all([mcpServer.connect(serverSide), mcp.connect(clientSide)]);
  try {
    const result = await mcp.callTool({ name: tool, arguments: args });
    return { isError: result.isError === true, text: (result.content as { text: string }[]).map((c) => c.text).join("\n") };
  } finally {
    await mcp.close();
  }
}

describe("the job summary shows what the server sent as text, never as markdown", () => {
  it("a status with line breaks, |, backticks, links and HTML stays inside its cell", async () => {
    const summary = join(work, "summary.md");
    const output = join(work, "output");
    const result = await dms(["deploy", FORGING, "--ref", "main", "--interval", "10ms", "--timeout", "150ms"], {
      ...env(),
      GITHUB_STEP_SUMMARY: summary,
      GITHUB_OUTPUT: output,
    });
    expect(result.code).toBe(3);
    const text = await readFile(summary, "utf8");
    const lines = text.trimEnd().split("\n");
    // One heading (dms's), the table's rows, and the error line: nothing the server sent starts a line.
    expect(lines.filter((line) => line.startsWith("#"))).toHaveLength(1);
    expect(lines[0]).toBe(String.raw`### ❌ dms deploy: BUILDING\\n\#\#\# ✅ forged \[link\](https://evil.example) \| \!\[i\](x)`);
    expect(text).toContain(`| revision | \`${CREATED}\` |`);
    for (const row of lines.filter((line) => line.startsWith("|"))) {
      // Two cells: three unescaped pipes.
      expect(row.match(/(?<!\\)\|/g), row).toHaveLength(3);
    }
    // No HTML, link or image: each [ and < escaped.
    expect(text).not.toMatch(/(?<!\\)[<[]/);
    // The step outputs carry the values as they are (a later step reads them), framed so they cannot add outputs.
    expect(await readFile(output, "utf8")).toMatch(/^status<<(ghadelimiter_[\w-]+)\nBUILDING\n### ✅ forged [^\n]*\n\1\n/m);
  });
});

describe("on GitHub, a multi-line secret is hidden line by line and as dms prints it", () => {
  it("each line, the escaped text form and the JSON form get their ::add-mask::, once, before anything else", async () => {
    const pem = "-----BEGIN KEY-----\r\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nbm90IGEgcmVhbCBrZXk=\t\u001b\n-----END KEY-----\n";
    const result = await dms(["deploy", DEPLOYMENT, "--secret-from-env", "PEM", "--dry-run"], { ...env(), PEM: pem, GITHUB_ACTIONS: "true" });
    const lines = result.stderr.split("\n");
    const masks = lines.filter((line) => line.startsWith("::add-mask::"));
    expect(lines.slice(0, masks.length)).toEqual(masks);
    expect(new Set(masks).size).toBe(masks.length);
    // The runner reads a workflow command's data with %, CR and LF escaped.
    const commandData = (text: string) => text.replace(/%0D/g, "\r").replace(/%0A/g, "\n").replace(/%25/g, "%");
    const masked = masks.map((line) => commandData(line.slice("::add-mask::".length)));
    expect(masked).toEqual(
      expect.arrayContaining([
        "env-key",
        pem,
        "-----BEGIN KEY-----",
        "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC",
        "bm90IGEgcmVhbCBrZXk=\t\u001b",
        "-----END KEY-----",
        String.raw`-----BEGIN KEY-----\r\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nbm90IGEgcmVhbCBrZXk=\t\x1B\n-----END KEY-----\n`,
        String.raw`-----BEGIN KEY-----\r\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nbm90IGEgcmVhbCBrZXk=\t\u001b\n-----END KEY-----\n`,
      ]),
    );
  });
});

describe("an answer nested deeper than any of the document is the service's error (exit 6), never a stack overflow", () => {
  it.each([
    ["data", "deep", /nests objects and arrays more than 100 levels deep/],
    ["an error body", "deep-error", /answered 400 Bad: no/],
  ])("%s, with --json", async (_what, name, message) => {
    const result = await dms(["deployments", "--name-contains", name, "--json"], env());
    expect(result.code, result.stderr).toBe(6);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toMatch(/unexpected error|Maximum call stack|at Masker/);
    expect(JSON.parse(result.stdout.trimEnd().split("\n").at(-1)!)).toMatchObject({ event: "result", exit_code: 6 });
  });
});

describe("a value the client quotes in a message, nested too deep, reads as the service's error on dms and the MCP server alike", () => {
  const TOO_DEEP = /the service's answer nests objects and arrays more than 100 levels deep, which no answer of the document does: it is not shown/;
  // [what, dms command line, MCP tool and arguments, what both say]: each once overflowed the stack
  // of JSON.stringify in the client's message ("Maximum call stack size exceeded").
  const cases: [string, string[], string, Record<string, unknown>, RegExp][] = [
    ["a list answered with a bare array", ["deployments", "--name-contains", "deep-body"], "list_deployments", { name_contains: "deep-body" }, /./],
    [
      "an error body that is a bare array",
      ["deployments", "--name-contains", "deep-error-body"],
      "list_deployments",
      { name_contains: "deep-error-body" },
      TOO_DEEP,
    ],
    [
      "a page's offset",
      ["deployments", "--name-contains", "deep-offset", "--limit", "2"],
      "list_deployments",
      { name_contains: "deep-offset", limit: 2 },
      TOO_DEEP,
    ],
    [
      "a PATCH answer's latest_revision_id",
      ["deploy", DEEP_PATCH, "--ref", "main"],
      "deploy",
      { deployment_id: DEEP_PATCH, source_revision_config: { repo_ref: "main" } },
      TOO_DEEP,
    ],
    ["a revision's status", ["wait", DEPLOYMENT, DEEP_STATUS], "wait_for_revision", { deployment_id: DEPLOYMENT, revision_id: DEEP_STATUS }, TOO_DEEP],
    [
      "a rollback target's source_revision_config",
      ["rollback", DEEP_ROLLBACK, "--to", REVISION],
      "rollback",
      { deployment_id: DEEP_ROLLBACK, revision_id: REVISION },
      TOO_DEEP,
    ],
  ];
  it.concurrent.each(cases)("%s", async (_what, args, tool, toolArgs, words) => {
    const result = await dms([...args, "--json", ...(args[0] === "deployments" ? [] : ["--interval", "10ms", "--timeout", "2s"])], env());
    expect(result.code, result.stderr).toBe(6);
    expect(result.stderr).toMatch(words);
    const last = JSON.parse(result.stdout.trimEnd().split("\n").at(-1)!);
    expect(last).toMatchObject({ event: "result", exit_code: 6 });
    const mcp = await mcpCall(tool, toolArgs);
    expect(mcp.isError, mcp.text).toBe(true);
    expect(mcp.text).toMatch(words);
    for (const text of [result.stderr, result.stdout, mcp.text]) expect(text).not.toMatch(/Maximum call stack|unexpected error/);
  });
});

describe("a deployment or a rollback target off the document where a plan or a rollback reads it is the service's error, on dms and the MCP server alike", () => {
  // [what, dms command line, MCP tool and arguments, what both say]: each once ended in a TypeError
  // ("Cannot destructure property 'repo_commit_sha'", exit 6 with kind "error"), a plan line "would
  // run: scm_host 0=x", "active revision [object Object]" or a read of ".../revisions/undefined".
  const cases: [string, string[], string, Record<string, unknown>, RegExp][] = [
    [
      "a plan of a deployment without source_revision_config",
      ["deploy", NO_CONFIG, "--ref", "main", "--dry-run"],
      "deploy",
      { deployment_id: NO_CONFIG, source_revision_config: { repo_ref: "main" }, dry_run: true },
      /the deployment's source_revision_config is missing, not an object/,
    ],
    [
      "a plan of a deployment whose source_revision_config is text",
      ["deploy", STRING_CONFIG, "--ref", "main", "--dry-run"],
      "deploy",
      { deployment_id: STRING_CONFIG, source_revision_config: { repo_ref: "main" }, dry_run: true },
      /the deployment's source_revision_config is "x", not an object/,
    ],
    [
      "a rollback of a deployment whose active_revision_id is an object",
      ["rollback", OBJECT_ACTIVE],
      "rollback",
      { deployment_id: OBJECT_ACTIVE },
      /the deployment's active_revision_id is \{\}, not a UUID or null/,
    ],
    [
      "a rollback to a revision answered without its id",
      ["rollback", NO_ID_TARGET, "--to", REVISION],
      "rollback",
      { deployment_id: NO_ID_TARGET, revision_id: REVISION },
      /the revision's id \(none\) is not a UUID; nothing was sent/,
    ],
    [
      "a rollback whose page of revisions holds null",
      ["rollback", NULL_ITEM],
      "rollback",
      { deployment_id: NULL_ITEM },
      /the page of revisions has an item that is not a revision: null; nothing was sent/,
    ],
  ];
  it.concurrent.each(cases)("%s", async (_what, args, tool, toolArgs, words) => {
    for (const json of [[], ["--json"]]) {
      const result = await dms([...args, ...json, "--interval", "10ms", "--timeout", "2s"], env());
      expect(result.code, result.stderr).toBe(6);
      expect(result.stderr).toMatch(words);
      expect(result.stdout + result.stderr).not.toMatch(/undefined|\[object Object\]|Cannot (destructure|read)/);
      if (json.length > 0) {
        const last = JSON.parse(result.stdout.trimEnd().split("\n").at(-1)!);
        expect(last).toMatchObject({ event: "result", exit_code: 6, error: { kind: "api_error", title: "Invalid response body" } });
      }
    }
    const mcp = await mcpCall(tool, toolArgs);
    expect(mcp.isError, mcp.text).toBe(true);
    expect(mcp.text).toMatch(words);
    // Nothing was patched.
    expect(server.requests.filter((r) => r.method === "PATCH" && r.url.pathname === `/v2/deployments/${args[1]}`)).toEqual([]);
  });
});

describe("the MCP server's words about an answer off the document", () => {
  it("deploy with wait: false, the new revision answered without its id and status: it was created, follow it (no 'revision undefined … is undefined')", async () => {
    const mcp = await mcpCall("deploy", { deployment_id: BARE_CREATED, source_revision_config: { repo_ref: "main" }, wait: false });
    expect(mcp.isError).toBe(true);
    expect(mcp.text).toContain(CREATED);
    expect(mcp.text).toMatch(/wait_for_revision/);
    expect(mcp.text).toMatch(/is not a revision: its id is missing and its status missing/);
    expect(mcp.text).not.toMatch(/undefined/);
  });

  it("the data given as JSON text has its bidi controls as \\u escapes: the same JSON value, shown by the rule of every text", async () => {
    const mcp = await mcpCall("get_deployment", { deployment_id: BIDI_NAME });
    expect(mcp.isError).toBe(true);
    expect(mcp.text).not.toContain("\u202e");
    expect(JSON.parse(mcp.text.split("\n").at(-1)!)).toEqual({ id: BIDI_NAME, name: "evil\u202egnp.exe" });
  });
});
