// dms where no happy path goes, each against a real local HTTP server and the compiled CLI as a
// child process: masking that leaves other output alone, SIGTERM, GitHub outputs written at once and
// failing quietly, a closed stdout, control characters from the server, and what a new user types.
import { spawn } from "node:child_process";
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SEED_IDS } from "../../src/simulator/core/index.js";
import { EXAMPLE_IDS } from "../../src/cli/specs.js";
import { type LocalServer, sendJson, startLocalServer } from "../client/local-server.js";
import { cleanEnv, DMS, dms, jsonLines, startDms } from "./support.js";

// Ids full of "1"s, to see that a secret "1" does not touch them.
const DEPLOYMENT = "11111111-1111-4111-8111-111111111111";
const OLD = "21111111-1111-4111-8111-111111111111";
const REVISION = "31111111-1111-4111-8111-111111111111";
const STUCK = "41111111-1111-4111-8111-111111111111";
const ECHOING = "51111111-1111-4111-8111-111111111111";
/** A deployment whose new revision (STUCK) stays BUILDING. */
const STUCK_DEPLOYMENT = "61111111-1111-4111-8111-111111111111";
const HOSTILE = "evil\x1b]0;pwned\x07\x1b[2J\nforged-row  READY\u202Eexe.txt";

let server: LocalServer;
let work: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "dms-robust-"));
  server = await startLocalServer((req, res) => {
    const path = req.url.pathname;
    const patched = req.method === "PATCH";
    if (path === "/v2/deployments") {
      const resources = Array.from({ length: 100 }, (_, i) => ({
        id: DEPLOYMENT,
        name: i === 0 ? HOSTILE : `agent-${"x".repeat(1000)}-${i}`,
        status: "READY",
        source: "scm_host",
        deployment_type: "dev_free",
        latest_revision_id: REVISION,
        secrets: [],
      }));
      return sendJson(res, 200, { resources: resources.slice(0, Number(req.url.searchParams.get("limit") ?? 20)), offset: 100 });
    }
    if (path.endsWith("/revisions")) {
      return sendJson(res, 200, {
        resources: [{ id: REVISION, status: "DEPLOYED", created_at: "2026-01-01T00:00:00Z", source_revision_config: { repo_ref: HOSTILE } }],
        offset: 1,
      });
    }
    if (path === `/v2/deployments/${ECHOING}` && patched) {
      // A server that repeats the patch, secret values and control characters included, in its problem.
      return sendJson(res, 422, { title: "Unprocessable\x1b[31m", status: 422, detail: `rejected ${req.body}\nforged: line`, errors: [] });
    }
    if (path.endsWith(`/revisions/${REVISION}`)) return sendJson(res, 200, { id: REVISION, status: "DEPLOYED" });
    if (path.endsWith(`/revisions/${STUCK}`)) return sendJson(res, 200, { id: STUCK, status: "BUILDING" });
    const id = path.split("/")[3]!;
    const created = id === STUCK_DEPLOYMENT ? STUCK : REVISION;
    return sendJson(res, 200, { id, latest_revision_id: patched ? created : OLD, deployment_type: "dev_free" });
  });
});
afterAll(async () => {
  await server?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

const env = (extra: Record<string, string | undefined> = {}) => ({ DMS_BASE_URL: server.baseUrl, DMS_API_KEY: "dev", ...extra });

describe.concurrent("masking changes only secret values", () => {
  it("--secret FLAG=1 and DMS_API_KEY=dev leave ids, JSON and dev_free alone", async () => {
    const result = await dms(["deploy", DEPLOYMENT, "--secret", "FLAG=1", "--json", "--interval", "10ms"], env());
    expect(result.code).toBe(0);
    const lines = jsonLines(result.stdout);
    expect(lines.at(-1)).toMatchObject({ event: "result", deployment_id: DEPLOYMENT, revision_id: REVISION, status: "DEPLOYED", exit_code: 0 });
    expect(result.stdout).not.toContain("***");
    const listed = await dms(["deployments", "--json", "--limit", "2"], env());
    expect(jsonLines(listed.stdout)[1]).toMatchObject({ id: DEPLOYMENT, deployment_type: "dev_free" });
    expect(listed.stdout).not.toContain("***");
  });

  it("a long secret that the server repeats is masked, as a whole value, in every output", async () => {
    const secret = "s3cr3t-value-0123456789";
    const result = await dms(["deploy", ECHOING, "--secret", `TOKEN=${secret}`, "--json"], env({ DMS_API_KEY: "dev-key-long-enough" }));
    expect(result.code).toBe(6);
    expect(result.stdout + result.stderr).not.toContain(secret);
    expect(result.stderr).toContain('"value":"***"');
    // The problem's control characters are escaped: one line, no colour change from the server.
    expect(result.stderr).not.toContain("\x1b");
    expect(result.stderr).not.toMatch(/^forged/m);
    expect(result.stderr).toContain("Unprocessable\\x1B[31m");
  });
});

describe.concurrent("signals and GitHub outputs", () => {
  it("SIGTERM is treated like Ctrl+C: result line, outputs and the resume hint; revision_id was in GITHUB_OUTPUT at once", async () => {
    const output = join(work, "sigterm.output");
    await writeFile(output, "");
    const run = startDms(["deploy", STUCK_DEPLOYMENT, "--ref", "main", "--interval", "20ms", "--json"], env({ GITHUB_OUTPUT: output }));
    await run.waitForStdout('"status":"BUILDING"');
    // Before any signal: the revision's id is already an output, for the steps after a killed one.
    expect(await readFile(output, "utf8")).toContain(`revision_id=${STUCK}\n`);
    run.child.kill("SIGTERM");
    const result = await run.ended;
    expect(result.code).toBe(143);
    expect(result.stderr).toContain("stopped by SIGTERM");
    expect(result.stderr).toMatch(new RegExp(`resume with: dms wait ${STUCK_DEPLOYMENT} ${STUCK} --interval 20ms --json`));
    expect(jsonLines(result.stdout).at(-1)).toMatchObject({ event: "result", revision_id: STUCK, status: "BUILDING", exit_code: 143 });
    const written = await readFile(output, "utf8");
    expect(written).toContain(`deployment_id=${STUCK_DEPLOYMENT}\n`);
    expect(written).toContain("status=BUILDING\n");
  });

  it("an unwritable GITHUB_OUTPUT is one clear line and a DEPLOYED result still exits 0", async () => {
    const readOnly = join(work, "read-only.output");
    await writeFile(readOnly, "");
    await chmod(readOnly, 0o444);
    for (const file of [join(work, "no-such-dir", "output"), ...(process.getuid?.() === 0 ? [] : [readOnly])]) {
      const result = await dms(["deploy", DEPLOYMENT, "--ref", "main", "--interval", "10ms"], env({ GITHUB_OUTPUT: file }));
      expect(result.code).toBe(0);
      const lines = result.stderr.split("\n").filter(Boolean);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^dms: cannot write GITHUB_OUTPUT \(.+\): (E[A-Z]+|.+ is missing \(ENOENT\)); continuing without it \(the exit code is unchanged\)$/,
      );
      expect(result.stdout).toMatch(/DEPLOYED after/);
    }
  });
});

describe.concurrent("redirects", () => {
  it("a redirect to another origin is refused (exit 6): the other origin gets neither the key nor the patch", async () => {
    const other = await startLocalServer((_req, res) => sendJson(res, 200, { id: DEPLOYMENT, latest_revision_id: REVISION }));
    const moved = await startLocalServer((req, res) => {
      res.writeHead(307, { Location: `${other.baseUrl}${req.url.pathname}` });
      res.end();
    });
    try {
      const result = await dms(["deploy", DEPLOYMENT, "--secret", "TOKEN=a-long-secret-value", "--json"], env({ DMS_BASE_URL: moved.baseUrl }));
      expect(result.code).toBe(6);
      expect(result.stderr).toMatch(/leads to another origin/);
      expect(jsonLines(result.stdout).at(-1).error).toMatchObject({ kind: "redirect_refused", status: 307 });
      expect(other.requests).toEqual([]);
    } finally {
      await Promise.all([other.close(), moved.close()]);
    }
  });
});

describe.concurrent("a closed stdout", () => {
  it("dms deployments | head -1 ends quietly: no EPIPE, no stack, exit 0", async () => {
    // 100 rows of 1 kB: more than a pipe holds, so dms is still writing when head has gone.
    const script = `"$NODE" "$DMS" deployments --limit 100 | head -1 >/dev/null; echo "exit=\${PIPESTATUS[0]}" >&2`;
    const child = spawn("bash", ["-c", script], { env: cleanEnv({ ...env(), NODE: process.execPath, DMS }) });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    await new Promise((resolve) => child.on("close", resolve));
    expect(stderr).not.toMatch(/EPIPE|Error|at /);
    expect(stderr.trim()).toBe("exit=0");
  });
});

describe.concurrent("text from the server cannot drive the terminal", () => {
  it("the deployments table escapes ESC, BEL, newlines and bidi controls: no raw control, no forged row", async () => {
    const result = await dms(["deployments", "--limit", "3"], env());
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f\u202e]/);
    const lines = result.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain("evil\\x1B]0;pwned\\x07\\x1B[2J\\nforged-row  READY\\u202Eexe.txt");
  });

  it("the revisions table and --json lines escape them too", async () => {
    const table = await dms(["revisions", DEPLOYMENT], env());
    expect(table.stdout.trimEnd().split("\n")).toHaveLength(2);
    expect(table.stdout).not.toMatch(/[\x1b\x07\u202e]/);
    const json = await dms(["revisions", DEPLOYMENT, "--json"], env());
    expect(json.stdout).not.toMatch(/[\x1b\x07\u202e]/);
    expect(jsonLines(json.stdout)[0].source_revision_config.repo_ref).toBe(HOSTILE);
  });
});

describe.concurrent("what a new user types", () => {
  it("--wait is accepted (waiting is the default)", async () => {
    const result = await dms(["deploy", DEPLOYMENT, "--ref", "main", "--wait", "--interval", "10ms"], env());
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/DEPLOYED after/);
  });

  it("--status ready lists READY deployments; revisions take lower case too", async () => {
    const before = server.requests.length;
    expect((await dms(["deployments", "--status", "ready", "--limit", "1"], env())).code).toBe(0);
    expect((await dms(["revisions", DEPLOYMENT, "--status", "deployed,Build_Failed"], env())).code).toBe(0);
    const queries = server.requests.slice(before).map((r) => r.url.searchParams.get("status"));
    expect(queries).toContain("READY");
    expect(queries).toContain("DEPLOYED,BUILD_FAILED");
  });

  it("the help's example ids are the simulator seed's", async () => {
    expect(EXAMPLE_IDS).toEqual({ deployment: SEED_IDS.deployment_id, revision: SEED_IDS.revision_id });
    for (const command of ["deploy", "wait", "revisions"]) {
      const help = (await dms([command, "--help"])).stdout;
      expect(help).toContain(SEED_IDS.deployment_id);
    }
  });
});
