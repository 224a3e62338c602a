// `npm run api:diff`, the script, as a process: exit 1 on a breaking change unless both major
// versions were bumped, its three output formats, its usage error, and a pass on the repository
// itself. How each change is classified is test/release/api-diff.test.ts (in-process, fast lane).
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../support/document.js";
import { run } from "../../support/run.js";

const RELEASES = join(ROOT, "api", "releases");

let baseline: any;
let baselineVersion: string;
beforeAll(async () => {
  const names = (await readdir(RELEASES)).filter((n) => /^\d+\.\d+\.\d+\.json$/.test(n)).sort();
  baselineVersion = names[0]!.slice(0, -5);
  baseline = JSON.parse(await readFile(join(RELEASES, names[0]!), "utf8"));
});

const schemas = (doc: any) => doc.components.schemas;

describe("npm run api:diff (the script)", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "api-diff-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function runDiff(mutate: (doc: any) => void, packageVersion: string, ...flags: string[]) {
    const revision = structuredClone(baseline);
    mutate(revision);
    const file = join(dir, `revision-${Math.random().toString(36).slice(2)}.json`);
    await writeFile(file, JSON.stringify(revision));
    const args = ["tools/release/api-diff.ts", "--revision", file, "--package-version", packageVersion, ...flags];
    try {
      const { stdout } = await run(process.execPath, args, { cwd: ROOT });
      return { code: 0, stdout };
    } catch (error: any) {
      return { code: error.code as number, stdout: String(error.stdout), stderr: String(error.stderr) };
    }
  }
  const nullableTenant = (d: any) => (schemas(d).Deployment.properties.tenant_id.type = ["string", "null"]);
  const bumpApi = (d: any) => (d.info.version = "3.0.0");

  it("fails on a breaking response change without the major bumps, naming both", async () => {
    const { code, stdout } = await runDiff(nullableTenant, baselineVersion);
    expect(code).toBe(1);
    expect(stdout).toContain("Breaking changes (1):");
    expect(stdout).toContain("response Deployment.tenant_id: made nullable (may be null)");
    expect(stdout).toMatch(/FAIL: breaking changes need a new major info\.version/);
    expect(stdout).toMatch(/FAIL: breaking changes need a new major package\.json version/);
  });

  it("fails on a breaking request change when only info.version was bumped", async () => {
    const { code, stdout } = await runDiff((d) => {
      schemas(d).ListenerPatch.required = ["version"];
      bumpApi(d);
    }, baselineVersion);
    expect(code).toBe(1);
    expect(stdout).toContain("request  ListenerPatch.version: field made required");
    expect(stdout).not.toMatch(/FAIL: .*info\.version/);
    expect(stdout).toMatch(/FAIL: breaking changes need a new major package\.json version/);
  });

  it("fails when only the package major was bumped", async () => {
    const { code, stdout } = await runDiff(nullableTenant, "1.0.0");
    expect(code).toBe(1);
    expect(stdout).toMatch(/FAIL: breaking changes need a new major info\.version: 2\.0\.0 -> 2\.0\.0/);
  });

  it("passes a breaking change released as a new major of both", async () => {
    const { code, stdout } = await runDiff((d) => {
      nullableTenant(d);
      bumpApi(d);
    }, "1.0.0");
    expect(code).toBe(0);
    expect(stdout).toContain("OK: 1 breaking changes, released as a new major");
  });

  it("passes an additive change and lists it", async () => {
    const { code, stdout } = await runDiff((d) => (schemas(d).Deployment.properties.region = { type: "string" }), baselineVersion);
    expect(code).toBe(0);
    expect(stdout).toContain("Non-breaking changes (1):");
    expect(stdout).toContain("response Deployment.region: field added");
  });

  it("prints the changes as JSON and as a changelog section", async () => {
    const json = await runDiff(nullableTenant, baselineVersion, "--format", "json");
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout);
    expect(report.ok).toBe(false);
    expect(report.missingBumps).toEqual(["info.version", "package.json version"]);
    expect(report.changes).toEqual([expect.objectContaining({ impact: "breaking", side: "response", where: "Deployment.tenant_id" })]);
    const markdown = await runDiff(nullableTenant, baselineVersion, "--format", "markdown");
    expect(markdown.stdout).toContain("#### Breaking\n\n- response: `Deployment.tenant_id`: made nullable (may be null)");
  });

  it("answers a usage error with exit code 2", async () => {
    const { code, stderr } = await runDiff(() => {}, baselineVersion, "--format", "yaml");
    expect(code).toBe(2);
    expect(stderr).toContain("--format must be text, json or markdown");
  });

  it("passes on the repository itself: generated/openapi.json against the latest release", async () => {
    try {
      await run(process.execPath, ["tools/release/api-diff.ts"], { cwd: ROOT });
    } catch (error: any) {
      expect.fail(`npm run api:diff fails:\n${error.stdout}`);
    }
  });
});
