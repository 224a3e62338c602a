// GitHub Actions files and annotations, and the promise that secret values never appear in any
// output: stdout, stderr, $GITHUB_OUTPUT, $GITHUB_STEP_SUMMARY, whatever the outcome.
import { randomUUID } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type RunningSimulator } from "../../src/simulator/node/index.js";
import { sendJson, startLocalServer, type LocalServer } from "../client/local-server.js";
import { API_KEY, dms, jsonLines, SimulatorControl } from "./support.js";

let simulator: RunningSimulator;
let sim: SimulatorControl;
let ids: string[];
let work: string;

beforeAll(async () => {
  simulator = await startSimulator({ port: 0, stepSeconds: 0.05, quiet: true });
  sim = new SimulatorControl(simulator.url);
  // The last deployments of the seed: deploy.test.ts uses the first ones (each file has its own simulator anyway).
  ids = (await sim.deploymentIds()).reverse();
  work = await mkdtemp(join(tmpdir(), "dms-github-"));
});

afterAll(async () => {
  await simulator?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/** Fresh, empty GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files. */
async function githubFiles() {
  const name = randomUUID();
  const output = join(work, `${name}.output`);
  const summary = join(work, `${name}.summary`);
  await Promise.all([writeFile(output, ""), writeFile(summary, "")]);
  return {
    env: { GITHUB_ACTIONS: "true", GITHUB_OUTPUT: output, GITHUB_STEP_SUMMARY: summary },
    read: async () => ({ output: await readFile(output, "utf8"), summary: await readFile(summary, "utf8") }),
  };
}

describe.concurrent("GitHub Actions", () => {
  it("a deployed revision: outputs, a summary, no annotation", async () => {
    const id = ids[0]!;
    const gh = await githubFiles();
    // A secret creates a revision on every source (--ref only on scm_host: src/shared/source-rules.ts).
    const result = await dms(["deploy", id, "--secret", "RELEASE=main", "--interval", "20ms"], sim.env(gh.env));
    expect(result.code).toBe(0);
    const revisionId = (await sim.get(`/v2/deployments/${id}`)).latest_revision_id;
    const { output, summary } = await gh.read();
    expect(output).toBe(`deployment_id=${id}\nrevision_id=${revisionId}\nstatus=DEPLOYED\n`);
    expect(summary).toMatch(/^### ✅ dms deploy: DEPLOYED\n/);
    expect(summary).toContain(`| revision | \`${revisionId}\` |`);
    expect(summary).toContain("| exit code | 0 |");
    expect(result.stderr).not.toContain("::error");
  });

  it("a failed revision: outputs with its status and an ::error:: annotation on stderr", async () => {
    const id = ids[1]!;
    await sim.failNext(id, "DEPLOY_FAILED");
    const gh = await githubFiles();
    const result = await dms(["deploy", id, "--secret", "RELEASE=main", "--interval", "20ms", "--json"], sim.env(gh.env));
    expect(result.code).toBe(1);
    const { output, summary } = await gh.read();
    expect(output).toMatch(/\nstatus=DEPLOY_FAILED\n$/);
    expect(summary).toMatch(/^### ❌ dms deploy: DEPLOY_FAILED\n/);
    expect(result.stderr).toMatch(/^::error title=dms deploy::revision \S+ ended DEPLOY_FAILED$/m);
    // The annotation stays off stdout, which is JSON lines only.
    jsonLines(result.stdout);
  });

  it("an API error: an annotation, and the summary says why", async () => {
    const gh = await githubFiles();
    const result = await dms(["wait", ids[2]!, "00000000-0000-4000-8000-000000000000"], sim.env(gh.env));
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(/^::error title=dms wait::GET \S+ answered 404/m);
    const { output, summary } = await gh.read();
    expect(output).toBe(`deployment_id=${ids[2]}\nrevision_id=00000000-0000-4000-8000-000000000000\nstatus=\n`);
    expect(summary).toMatch(/answered 404/);
  });

  it("no annotation outside GitHub Actions, and no files without their variables", async () => {
    const id = ids[3]!;
    await sim.failNext(id, "BUILD_FAILED");
    const result = await dms(["deploy", id, "--secret", "RELEASE=main", "--interval", "20ms"], sim.env());
    expect(result.code).toBe(1);
    expect(result.stderr).not.toContain("::error");
  });
});

describe.concurrent("secret values never appear", () => {
  // Unique values that cannot occur by chance, and one with characters that JSON escapes.
  const fromFlag = `flag-secret-${randomUUID()}`;
  const fromEnv = `env-secret-${randomUUID()}`;
  const quoted = `q"uo\\te-${randomUUID()}`;

  /**
   * The secrets appear nowhere but in the `::add-mask::` lines (GITHUB_ACTIONS=true) that tell the
   * runner to hide them: those come first, one per value, before any other line.
   */
  function withoutMasks(stderr: string): string {
    const lines = stderr.split("\n");
    const masks = lines.filter((line) => line.startsWith("::add-mask::"));
    expect(lines.slice(0, masks.length)).toEqual(masks);
    expect(new Set(masks).size).toBe(masks.length);
    return lines.slice(masks.length).join("\n");
  }

  function expectNoSecrets(...texts: string[]) {
    for (const text of texts.map((t, i) => (i === 1 ? withoutMasks(t) : t))) {
      for (const secret of [fromFlag, fromEnv, quoted, JSON.stringify(quoted).slice(1, -1)]) expect(text).not.toContain(secret);
    }
  }

  const secretArgs = ["--secret", `TOKEN=${fromFlag}`, "--secret", `QUOTED=${quoted}`, "--secret-from-env", "CI_SECRET"];

  for (const [name, fail, json] of [
    ["a deploy that succeeds", undefined, false],
    ["a deploy that fails, with --json", "BUILD_FAILED", true],
  ] as const) {
    it(name, async () => {
      const id = ids[name.includes("fails") ? 5 : 4]!;
      if (fail) await sim.failNext(id, fail);
      const gh = await githubFiles();
      const args = ["deploy", id, ...secretArgs, "--interval", "20ms", ...(json ? ["--json"] : [])];
      const result = await dms(args, sim.env({ ...gh.env, CI_SECRET: fromEnv }));
      expect(result.code).toBe(fail ? 1 : 0);
      // The secrets were sent: the deployment has them.
      const deployment = await sim.get(`/v2/deployments/${id}`);
      expect(deployment.secrets).toEqual([
        { name: "TOKEN", value: fromFlag },
        { name: "QUOTED", value: quoted },
        { name: "CI_SECRET", value: fromEnv },
      ]);
      const files = await gh.read();
      expect(files.output).toContain("status=");
      // The runner is told to hide each value (the key too), once, at the start.
      for (const value of [fromFlag, fromEnv, API_KEY]) expect(result.stderr.split(`::add-mask::${value}\n`)).toHaveLength(2);
      expectNoSecrets(result.stdout, result.stderr, files.output, files.summary);
    });
  }

  it("dms deployments --json shows secret values as ***", async () => {
    const seeded = await sim.get(`/v2/deployments?limit=100`);
    const withSecret = seeded.resources.find((d: { secrets: unknown[] }) => d.secrets.length > 0);
    const result = await dms(["deployments", "--json", "--limit", "100"], sim.env());
    expect(result.code).toBe(0);
    const listed = jsonLines(result.stdout);
    expect(listed.length).toBe(seeded.resources.length);
    expect(listed.find((d) => d.id === withSecret.id).secrets[0].value).toBe("***");
    expect(result.stdout).not.toContain(withSecret.secrets[0].value);
  });

  describe("a server that echoes the request body in its error", () => {
    let server: LocalServer;
    beforeAll(async () => {
      server = await startLocalServer((req, res) => {
        if (req.method === "GET") return sendJson(res, 200, { id: "d", latest_revision_id: null });
        sendJson(res, 422, {
          title: "Unprocessable Entity",
          detail: `bad body: ${req.body}`,
          errors: [{ pointer: "/secrets/0/value", detail: `"${JSON.parse(req.body).secrets[0].value}" is too weak` }],
        });
      });
    });
    afterAll(() => server?.close());

    it("exit 6 with the problem printed, the values replaced by ***", async () => {
      const gh = await githubFiles();
      const env = { DMS_BASE_URL: server.baseUrl, DMS_API_KEY: API_KEY, CI_SECRET: fromEnv, ...gh.env };
      const result = await dms(["deploy", "6b0d8a52-3c1e-4f7a-9b2d-1e5f3a7c9d01", ...secretArgs, "--json"], env);
      expect(result.code).toBe(6);
      // The server did receive them: the echo would have leaked them.
      expect(server.requests[1]!.body).toContain(fromFlag);
      expect(result.stderr).toContain("answered 422 Unprocessable Entity: bad body:");
      expect(result.stderr).toMatch(/^ {2}\/secrets\/0\/value: "\*\*\*" is too weak$/m);
      const files = await gh.read();
      expectNoSecrets(result.stdout, result.stderr, files.output, files.summary);
      expect(jsonLines(result.stdout).at(-1).error.detail).toContain('"value":"***"');
    });
  });

  it("usage errors do not echo a value", async () => {
    const result = await dms(["deploy", "d", "--secret", `=${fromFlag}`, "--secret", fromEnv], sim.env());
    expect(result.code).toBe(2);
    expectNoSecrets(result.stdout, result.stderr);
    const stray = await dms(["deploy", "d", "--secret", "NAME", fromFlag], sim.env());
    expect(stray.code).toBe(2);
    expectNoSecrets(stray.stdout, stray.stderr);
  });
});
