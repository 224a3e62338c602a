// dms with hostile input, table-driven from the commands' own flag tables (src/cli/specs.ts): a
// flag that takes one value given twice, durations that round to nothing, base URLs that fetch
// would refuse or rewrite, and a server whose revision id and status would forge the GitHub job
// summary. In-process (runDms) against a local HTTP server that records what it was sent.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { commandFlags } from "../../src/cli/flags.js";
import { COMMANDS } from "../../src/cli/specs.js";
import { sendJson, startLocalServer, type LocalServer } from "../client/local-server.js";
import { dmsInProcess as dms } from "./support.js";

const DEPLOYMENT = "6b0d8a52-3c1e-4f7a-9b2d-1e5f3a7c9d01";
const REVISION = "0c6b5e0a-7f6d-4b1e-8a47-3d2f1c9e8b70";
/** A deployment whose PATCH answers a revision id and status made to forge markdown. */
const FORGING = "7b0d8a52-3c1e-4f7a-9b2d-1e5f3a7c9d01";
const FORGED_ID = "x`|\n### ✅ dms deploy: DEPLOYED\n| status | DEPLOYED |<img src=x>";
const FORGED_STATUS = "BUILDING\n### ✅ forged [link](https://evil.example) | ![i](x)";

let server: LocalServer;
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "dms-hostile-"));
  server = await startLocalServer((req, res) => {
    const path = req.url.pathname;
    if (path.startsWith(`/v2/deployments/${FORGING}/revisions/`)) return sendJson(res, 200, { id: FORGED_ID, status: FORGED_STATUS });
    if (path === `/v2/deployments/${FORGING}`) {
      return sendJson(res, 200, { id: FORGING, source: "scm_host", latest_revision_id: req.method === "PATCH" ? FORGED_ID : REVISION });
    }
    sendJson(res, 404, { title: "Not Found", status: 404 });
  });
});
afterAll(async () => {
  await server?.close();
  if (work) await rm(work, { recursive: true, force: true });
});
beforeEach(() => {
  server.requests.length = 0;
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
  const result = await dms(args, env(extraEnv));
  expect(result.code, result.stderr).toBe(2);
  expect(result.stderr).toMatch(message);
  expect(server.requests).toEqual([]);
  return result;
}

describe("a flag that takes one value, given twice, is a usage error (every string flag of every command)", () => {
  const cases = Object.entries(BASE_ARGS).flatMap(([name, args]) =>
    Object.entries(commandFlags(COMMANDS[name as keyof typeof COMMANDS]))
      .filter(([, flag]) => flag.type === "string" && !flag.multiple)
      .map(([flag]) => [name, flag, args] as const),
  );
  it.concurrent.each(cases)("dms %s --%s a --%s b", async (_name, flag, args) => {
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
  const values = ["0.1ms", "0.0004s", "0", "-1s", "1e9s", "NaN", "Infinity", "25d", "999999999h", ""];
  it.concurrent.each(durationFlags.flatMap(([name, flag, args]) => values.map((value) => [name, flag, value, args] as const)))(
    "dms %s --%s=%j",
    async (_name, flag, value, args) => {
      await expectUsageError([...args, `--${flag}=${value}`], {}, new RegExp(`--${flag} "[^"]*" is not a duration`));
    },
  );

  it("a value pasted by mistake is cut in the message", async () => {
    const result = await expectUsageError([...BASE_ARGS.wait!, "--timeout", "y".repeat(10_000)], {}, /--timeout "y{80}…" is not a duration/);
    expect(result.stderr.length).toBeLessThan(1000);
  });
});

describe("a base URL that fetch would refuse or rewrite is a usage error naming its source, on every command", () => {
  const urls: [string, RegExp][] = [
    ["http://127.0.0.1:4011?tenant=x", /without \?query or #fragment/],
    ["http://127.0.0.1:4011/#top", /without \?query or #fragment/],
    ["http://127.0.0.1:6000", /port 6000 is one that fetch never connects to/],
    ["https://api.example.test:22/v2", /port 22 is one that fetch never connects to/],
    ["http://127.0.0.1:10080/", /port 10080 is one that fetch never connects to/],
  ];
  const cases = Object.entries(BASE_ARGS).flatMap(([name, args]) => urls.map(([url, message]) => [name, url, args, message] as const));
  it.concurrent.each(cases)("dms %s with %s", async (_name, url, args, message) => {
    await expectUsageError(args, { DMS_BASE_URL: url }, new RegExp(`DMS_BASE_URL ${message.source}|DMS_BASE_URL.*${message.source}`));
    await expectUsageError([...args, "--base-url", url], {}, new RegExp(`--base-url.*${message.source}`));
  });
});

describe("the job summary shows what the server sent as text, never as markdown", () => {
  it("a revision id and a status with line breaks, |, backticks, links and HTML stay inside their cells", async () => {
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
    for (const row of lines.filter((line) => line.startsWith("|"))) {
      // Two cells: three unescaped pipes.
      expect(row.match(/(?<!\\)\|/g), row).toHaveLength(3);
    }
    // No HTML, link or image: each [ and < escaped.
    expect(text).not.toMatch(/(?<!\\)[<[]/);
    // The step outputs carry the values as they are (a later step reads them), framed so they cannot add outputs.
    expect(await readFile(output, "utf8")).toMatch(/^revision_id<<(ghadelimiter_[\w-]+)\n[\s\S]*\n\1\n/m);
  });
});
