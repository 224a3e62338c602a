// The MCP maintainers' conformance suite (@modelcontextprotocol/conformance, pinned) against
// `dms mcp --port`, the compiled CLI as a child process, in front of the simulator: every server
// scenario (--suite all), judged against conformance-baseline.yaml, which lists only scenarios for
// features the server does not offer, each with its reason and the failure it must show. Everything
// else passes with no failure and no warning.
// The suite's own exit code is checked too, with the baseline given to it as --expected-failures.
import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { type RunningSimulator, startSimulator } from "../../../src/simulator/node/index.js";
import { startDms } from "../../cli/support.js";
import { ROOT } from "../../support/document.js";

interface Baseline {
  failures: Record<string, { reason: string; error?: string; warning?: string }>;
}
interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  errorMessage?: string;
}

const SUITE = join(ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
const baseline = parse(await readFile(join(import.meta.dirname, "conformance-baseline.yaml"), "utf8")) as Baseline;

let sim: RunningSimulator;
let dms: ReturnType<typeof startDms>;
let url: string;
let work: string;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, stepSeconds: 0.02, quiet: true });
  dms = startDms(["mcp", "--port", "0", "--interval", "10ms"], { DMS_BASE_URL: sim.url, DMS_API_KEY: "conformance-key" });
  let stdout = "";
  dms.child.stdout.on("data", (chunk: string) => {
    stdout += chunk;
  });
  await dms.waitForStdout("/mcp\n");
  url = stdout.split("\n")[0]!;
  work = await mkdtemp(join(tmpdir(), "dms-conformance-"));
});

afterAll(async () => {
  if (dms?.child.exitCode === null) dms.child.kill("SIGKILL");
  await sim?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

it("lists only scenarios the server has no feature for, each with a reason", async () => {
  const listed = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, [SUITE, "list"], { cwd: work }, (error, stdout) => (error ? reject(error) : resolve(stdout))),
  );
  const serverScenarios = [...listed.split("Client scenarios")[0]!.matchAll(/^\s+- (\S+)/gm)].map((m) => m[1]!);
  expect(serverScenarios.length).toBeGreaterThan(20);
  for (const [scenario, entry] of Object.entries(baseline.failures)) {
    expect(serverScenarios, scenario).toContain(scenario);
    expect(entry.reason.length, scenario).toBeGreaterThan(5);
    expect((entry.error ?? entry.warning)?.length, scenario).toBeGreaterThan(5);
  }
  // The transport, the handshake, the tool list and the DNS-rebinding rules are never excused.
  for (const scenario of ["server-initialize", "ping", "tools-list", "dns-rebinding-protection"]) {
    expect(serverScenarios).toContain(scenario);
    expect(baseline.failures).not.toHaveProperty(scenario);
  }
});

it("passes every other server scenario with no failure and no unexplained warning", async () => {
  const expectedFailures = join(work, "expected-failures.yaml");
  await writeFile(expectedFailures, stringify({ server: Object.keys(baseline.failures) }));
  const out = join(work, "results");
  const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
    execFile(
      process.execPath,
      [SUITE, "server", "--url", url, "--suite", "all", "--expected-failures", expectedFailures, "-o", out],
      { cwd: work, maxBuffer: 1 << 26 },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    ),
  );
  const results: Record<string, Check[]> = {};
  for (const dir of await readdir(out)) {
    const scenario = dir.replace(/^server-/, "").replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, "");
    results[scenario] = JSON.parse(await readFile(join(out, dir, "checks.json"), "utf8")) as Check[];
  }
  const problems: string[] = [];
  for (const [scenario, checks] of Object.entries(results)) {
    const failures = checks.filter((c) => c.status === "FAILURE");
    const warnings = checks.filter((c) => c.status === "WARNING");
    const excused = baseline.failures[scenario];
    if (excused?.error !== undefined) {
      if (failures.length === 0) problems.push(`${scenario}: passes, but the baseline lists it (stale entry)`);
      for (const f of failures)
        if (!f.errorMessage?.includes(excused.error)) problems.push(`${scenario}: fails otherwise than "${excused.error}": ${f.errorMessage}`);
      continue;
    }
    for (const f of failures) problems.push(`${scenario}: FAILURE ${f.id}: ${f.errorMessage ?? ""}`);
    for (const w of warnings.filter((c) => c.id !== excused?.warning)) problems.push(`${scenario}: WARNING ${w.id}: ${w.errorMessage ?? ""}`);
    if (excused && !warnings.some((c) => c.id === excused.warning)) problems.push(`${scenario}: no longer warns ${excused.warning} (stale entry)`);
  }
  expect(problems, run.stdout.slice(-4000)).toEqual([]);
  expect(Object.keys(results).length).toBeGreaterThan(Object.keys(baseline.failures).length);
  // Scenarios that pass must actually check something (both SSE scenarios skip without a session).
  for (const scenario of ["server-initialize", "ping", "tools-list", "dns-rebinding-protection", "server-sse-polling"]) {
    expect(results[scenario]?.filter((c) => c.status === "SUCCESS").length, scenario).toBeGreaterThan(0);
  }
  expect(results["server-sse-polling"]!.filter((c) => c.status === "SUCCESS").map((c) => c.id)).toEqual(
    expect.arrayContaining(["server-sse-priming-event", "server-sse-retry-field"]),
  );
  expect(run.code, run.stdout.slice(-4000) + run.stderr).toBe(0);
});
