// dms's command line: usage errors (exit 2) that name the flag and send nothing, the environment
// variables and the flags that win over them, and the help of every command.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { sendJson, startLocalServer, type LocalServer } from "../client/local-server.js";
import { commandFlags } from "../../src/cli/flags.js";
import { COMMANDS } from "../../src/cli/specs.js";
// In-process (runDms with captured streams) where no process boundary is under test; `dms simulate`
// (which starts a server in its own process) and the module-loading check run the bin.
import { dms as dmsProcess, dmsInProcess as dms, jsonLines } from "./support.js";

const DEPLOYMENT = "6b0d8a52-3c1e-4f7a-9b2d-1e5f3a7c9d01";
const REVISION = "0c6b5e0a-7f6d-4b1e-8a47-3d2f1c9e8b70";
let server: LocalServer;

beforeAll(async () => {
  // Answers like the service for one deployment whose revision is already DEPLOYED, and records what it was sent.
  server = await startLocalServer((req, res) => {
    const path = req.url.pathname;
    if (path.endsWith(`/revisions/${REVISION}`)) return sendJson(res, 200, { id: REVISION, status: "DEPLOYED" });
    if (path.endsWith("/revisions")) return sendJson(res, 200, { resources: [], offset: 0 });
    if (path === "/v2/deployments") return sendJson(res, 200, { resources: [], offset: 0 });
    if (path === `/v2/deployments/${DEPLOYMENT}`) {
      const latest = req.method === "PATCH" ? REVISION : "11111111-1111-4111-8111-111111111111";
      return sendJson(res, 200, { id: DEPLOYMENT, latest_revision_id: latest });
    }
    sendJson(res, 404, { title: "Not Found" });
  });
});
afterAll(() => server?.close());
beforeEach(() => {
  server.requests.length = 0;
});

const env = () => ({ DMS_BASE_URL: server.baseUrl, DMS_API_KEY: "env-key" });

describe("usage errors: exit 2, the message names the flag or variable, nothing is sent", () => {
  const cases: [string, string[], Record<string, string | undefined>, RegExp][] = [
    ["an unknown flag", ["deploy", DEPLOYMENT, "--ref", "main", "--colour"], {}, /unknown flag --colour/],
    ["a flag without its value", ["deploy", DEPLOYMENT, "--ref"], {}, /--ref needs a value/],
    ["a value for a switch", ["deploy", DEPLOYMENT, "--ref", "x", "--json=yes"], {}, /--json takes no value/],
    ["a missing deployment id", ["deploy", "--ref", "main"], {}, /expected <deployment-id>, got 0/],
    ["an extra argument", ["wait", DEPLOYMENT, REVISION, "extra"], {}, /expected <deployment-id> <revision-id>, got 3/],
    ["no DMS_BASE_URL", ["deploy", DEPLOYMENT, "--ref", "main"], { DMS_BASE_URL: undefined }, /set DMS_BASE_URL or pass --base-url/],
    ["no DMS_API_KEY", ["deploy", DEPLOYMENT, "--ref", "main"], { DMS_API_KEY: undefined }, /set DMS_API_KEY or pass --api-key/],
    ["an empty DMS_API_KEY", ["wait", DEPLOYMENT, REVISION], { DMS_API_KEY: "" }, /set DMS_API_KEY or pass --api-key/],
    ["a base URL that is not http", ["deployments"], { DMS_BASE_URL: "ftp://example.com" }, /DMS_BASE_URL "ftp:\/\/example.com" is not an http/],
    ["a bad --base-url", ["deployments", "--base-url", "example.com"], {}, /--base-url "example.com" is not an http/],
    ["a bad --timeout", ["deploy", DEPLOYMENT, "--ref", "main", "--timeout", "20 minutes"], {}, /--timeout "20 minutes" is not a duration/],
    ["a zero --interval", ["wait", DEPLOYMENT, REVISION, "--interval", "0s"], {}, /--interval "0s" is not a duration/],
    ["a bad --request-timeout", ["deployments", "--request-timeout", "0"], {}, /--request-timeout "0" is not a duration/],
    ["an unknown unit", ["wait", DEPLOYMENT, REVISION, "--timeout", "3d"], {}, /--timeout "3d" is not a duration/],
    ["nothing that creates a revision", ["deploy", DEPLOYMENT], {}, /nothing to deploy: give --ref/],
    ["an empty --ref", ["deploy", DEPLOYMENT, "--ref", ""], {}, /--ref is empty/],
    [
      "a bad --revision-source",
      ["deploy", DEPLOYMENT, "--revision-source", "ftp"],
      {},
      /--revision-source "ftp" is not a revision source: use scm_host, internal_docker, internal_source/,
    ],
    ["--secret without =", ["deploy", DEPLOYMENT, "--secret", "TOKEN"], {}, /--secret needs NAME=VALUE/],
    ["a secret given twice", ["deploy", DEPLOYMENT, "--secret", "A=1", "--secret", "A=2"], {}, /the secret A is given twice/],
    [
      "--secret-from-env of an unset variable",
      ["deploy", DEPLOYMENT, "--secret-from-env", "NOT_SET_HERE"],
      {},
      /--secret-from-env NOT_SET_HERE: the environment variable NOT_SET_HERE is not set/,
    ],
    ["--secret-from-env of an empty variable", ["deploy", DEPLOYMENT, "--secret-from-env", "EMPTY"], { EMPTY: "" }, /the environment variable EMPTY is empty/],
    [
      "a revision status that does not exist",
      ["revisions", DEPLOYMENT, "--status", "DEPLOYED,DONE"],
      {},
      /--status "DONE" is not a revision status: use CREATING, /,
    ],
    [
      "a deployment status that does not exist",
      ["deployments", "--status", "DEPLOYED"],
      {},
      /--status "DEPLOYED" is not a deployment status: use AWAITING_DATABASE, READY/,
    ],
    ["a bad --limit", ["deployments", "--limit", "0"], {}, /--limit "0" is not a whole number of at least 1/],
    ["an unknown command", ["promote"], {}, /unknown command "promote"/],
    ["a deployment id that is not a UUID", ["deploy", "not-a-uuid", "--ref", "main"], {}, /<deployment-id> "not-a-uuid" is not a UUID/],
    ["a revision id that is not a UUID", ["wait", DEPLOYMENT, ".."], {}, /<revision-id> "\.\." is not a UUID/],
    ["a deployment id with a control character", ["revisions", "\x1b]0;x\x07"], {}, /<deployment-id> "\\x1B]0;x\\x07" is not a UUID/],
    ["--wait with --no-wait", ["deploy", DEPLOYMENT, "--ref", "main", "--wait", "--no-wait"], {}, /--wait and --no-wait together/],
    [
      "a --base-url with user:password@ (the password is not echoed)",
      ["deployments", "--base-url", "http://ci:hunter2-pass@127.0.0.1:9"],
      {},
      /--base-url must not contain user:password@ \(the value is not shown\)/,
    ],
    [
      "a DMS_BASE_URL with user:password@",
      ["deployments"],
      { DMS_BASE_URL: "https://ci:hunter2-pass@api.example.com" },
      /DMS_BASE_URL must not contain user:password@/,
    ],
  ];
  it.concurrent.each(cases)("%s", async (_name, args, extraEnv, message) => {
    const result = await dms(args, { ...env(), ...extraEnv });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toContain("hunter2");
    expect(result.stderr).not.toContain("\x1b");
    expect(result.stdout).toBe("");
    expect(server.requests).toEqual([]);
  });

  it("with --json, the last stdout line is still a result object", async () => {
    const result = await dms(["deploy", DEPLOYMENT, "--json", "--timeout", "soon", "--ref", "main"], env());
    expect(result.code).toBe(2);
    expect(jsonLines(result.stdout)).toEqual([
      { event: "result", exit_code: 2, error: { kind: "usage", message: expect.stringMatching(/^--timeout "soon"/) } },
    ]);
  });

  // Table-driven from the flag tables: a command that takes --json ends with a result line when
  // --json is given as a flag, and no other command line writes to stdout (`dms mcp`'s stdout is
  // the MCP protocol's; after `--`, "--json" is an argument).
  const jsonCases = Object.values(COMMANDS)
    .filter((spec) => spec.name !== "simulate")
    .flatMap((spec) => {
      const takesJson = Object.hasOwn(commandFlags(spec), "json");
      return [
        [spec.name, ["--bogus", "--json"], takesJson],
        [spec.name, ["--bogus", "--", "--json"], false],
        [spec.name, ["--", "--json"], false],
      ] as const;
    });
  it.concurrent.each(jsonCases)("dms %s %j: a result line on stdout only if the command takes --json as a flag (%s)", async (name, args, resultLine) => {
    const result = await dms([name, ...args], env());
    expect(result.code).toBe(2);
    if (resultLine) expect(jsonLines(result.stdout)).toEqual([{ event: "result", exit_code: 2, error: { kind: "usage", message: expect.any(String) } }]);
    else expect(result.stdout).toBe("");
  });

  it("no command prints the help on stderr", async () => {
    const result = await dms([], env());
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^dms: deploy to the Deployment Management Service/);
  });
});

describe("environment and flags", () => {
  it("uses DMS_BASE_URL, DMS_API_KEY and DMS_TENANT_ID", async () => {
    const result = await dms(["deploy", DEPLOYMENT, "--ref", "main", "--interval", "10ms"], { ...env(), DMS_TENANT_ID: "tenant-from-env" });
    expect(result.code).toBe(0);
    expect(server.requests.map((r) => `${r.method} ${r.url.pathname}`)).toEqual([
      `GET /v2/deployments/${DEPLOYMENT}`,
      `PATCH /v2/deployments/${DEPLOYMENT}`,
      `GET /v2/deployments/${DEPLOYMENT}/revisions/${REVISION}`,
    ]);
    for (const r of server.requests) {
      expect(r.headers["x-api-key"]).toBe("env-key");
      expect(r.headers["x-tenant-id"]).toBe("tenant-from-env");
    }
  });

  it("flags win over the environment", async () => {
    const result = await dms(["wait", DEPLOYMENT, REVISION, "--base-url", server.baseUrl, "--api-key", "flag-key", "--tenant-id", "tenant-from-flag"], {
      DMS_BASE_URL: "http://127.0.0.1:1",
      DMS_API_KEY: "env-key",
      DMS_TENANT_ID: "tenant-from-env",
    });
    expect(result.code).toBe(0);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.headers["x-api-key"]).toBe("flag-key");
    expect(server.requests[0]!.headers["x-tenant-id"]).toBe("tenant-from-flag");
  });

  it("sends no tenant header without one", async () => {
    const result = await dms(["deployments"], env());
    expect(result.code).toBe(0);
    expect(server.requests[0]!.headers["x-tenant-id"]).toBeUndefined();
  });
});

describe("dms simulate", () => {
  it.concurrent.each([
    [["--port", "nope"], /--port takes a port number from 0 to 65535/],
    [["--bogus"], /'--bogus'/],
    [["--cors-origin", "*"], /--cors-origin/],
    // A flag or a value as typed is shown with its control characters made visible, never obeyed.
    [["--\x1b]0;x\x07"], /'--\\x1B\]0;x\\x07'/],
    [["--latency", "\x1b[2J"], /--latency .*not "\\x1B\[2J"/],
  ])("%j is a usage error (2) naming the flag, and nothing starts", async (args, message) => {
    const result = await dmsProcess(["simulate", ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toContain("\x1b");
    expect(result.stdout).toBe("");
  });
});

describe("help", () => {
  it.concurrent.each(["deploy", "wait", "deployments", "revisions", "simulate"])(
    "dms %s --help shows the usage, an example and the exit codes",
    async (command) => {
      const result = await dms([command, "--help"]);
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(new RegExp(`^Usage: dms ${command}`));
      expect(result.stdout).toMatch(/\nExample:\n {2}\S/);
      expect(result.stdout).toMatch(/\nExit codes:\n {2}0 /);
    },
  );

  it("dms --help lists every command and every exit code", async () => {
    const result = await dms(["--help"]);
    expect(result.code).toBe(0);
    for (const command of ["deploy", "wait", "deployments", "revisions", "simulate"]) expect(result.stdout).toMatch(new RegExp(`\\n  ${command}\\b`));
    for (const code of [0, 1, 2, 3, 4, 5, 6, 130]) expect(result.stdout).toMatch(new RegExp(`\\n  ${code} +\\S`));
    expect(result.stdout).toMatch(/DMS_BASE_URL[\s\S]*DMS_API_KEY[\s\S]*DMS_TENANT_ID/);
  });

  it("dms --help loads only the entry and the help texts", async () => {
    // A module hook on its own thread reports every module that is loaded.
    const hooks = `export async function load(url, context, next) { if (url.startsWith("file:")) globalThis.port?.postMessage(url); return next(url, context); }
export function initialize(data) { globalThis.port = data.port; }`;
    const register = `import { register } from "node:module"; import { MessageChannel } from "node:worker_threads";
const { port1, port2 } = new MessageChannel(); const seen = [];
port1.on("message", (url) => seen.push(url)); port1.unref();
register("data:text/javascript,${encodeURIComponent(hooks)}", { data: { port: port2 }, transferList: [port2] });
process.on("exit", () => process.stderr.write(JSON.stringify(seen)));`;
    const { execFile } = await import("node:child_process");
    const { DMS } = await import("./support.js");
    const stderr = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, ["--import", `data:text/javascript,${encodeURIComponent(register)}`, DMS, "--help"], (error, _stdout, err) =>
        error ? reject(error) : resolve(err),
      ),
    );
    const loaded = (JSON.parse(stderr) as string[]).map((url) => url.replace(/^.*\/dist\//, "dist/"));
    // The help is built from the command specs (the flag tables the parser reads): data, no client.
    // The flag-table helpers and dms-simulator's table (read by `dms simulate`) are data too.
    expect(loaded.sort()).toEqual([
      "dist/cli/dispatch.js",
      "dist/cli/flags.js",
      "dist/cli/help.js",
      "dist/cli/main.js",
      "dist/cli/specs.js",
      "dist/shared/flag-table.js",
      "dist/simulator/node/flags.js",
    ]);
  });
});
