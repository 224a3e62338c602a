// Secrets equal to every key and every value of real output. A real `--json` output is taken first;
// then, for each key and value in it, the same command runs with a secret (or the API key) equal to
// it. What machines read must come out byte for byte the same, except where the secret really is
// (a deployment's secrets[].value): masking hides secrets, never a field's name or another value.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SEED_IDS } from "../../../src/simulator/core/seed.js";
import { type RunningSimulator, startSimulator } from "../../../src/simulator/node/start.js";
import { headerValueProblem } from "../../../src/shared/header-value.js";
import { sendJson, startLocalServer } from "../../client/local-server.js";
import { dms, jsonLines } from "../../cli/support.js";

const work = mkdtempSync(join(tmpdir(), "dms-masking-"));
let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0, quiet: true, stepSeconds: 0.01, seedDeployments: 4 });
});
afterAll(async () => {
  await sim?.close();
  rmSync(work, { recursive: true, force: true });
});

/** Every key and every scalar value (as text) in JSON lines, each once, in order of appearance. */
function keysAndValues(lines: unknown[]): string[] {
  const found = new Set<string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) {
        found.add(k);
        walk(x);
      }
    } else if (v !== null && v !== undefined) found.add(String(v));
  };
  lines.forEach(walk);
  return [...found].filter((v) => v !== "" && headerValueProblem(v) === undefined);
}

const env = (extra: Record<string, string> = {}) => ({ DMS_BASE_URL: sim.url, DMS_API_KEY: "k", ...extra });
let run = 0;

describe("a secret equal to a key or a value of the output changes nothing a machine reads", () => {
  it("dms deploy --json and GITHUB_OUTPUT: the result and the outputs are the same for every such --secret", async () => {
    const deploy = async (secret: string | undefined) => {
      const output = join(work, `output-${run++}`);
      const args = [
        "deploy",
        SEED_IDS.deployment_id,
        "--ref",
        "main",
        "--interval",
        "10ms",
        "--json",
        ...(secret === undefined ? [] : ["--secret", `S=${secret}`]),
      ];
      const result = await dms(args, env({ GITHUB_OUTPUT: output, GITHUB_ACTIONS: "true" }));
      expect(result.code, result.stderr).toBe(0);
      const lines = jsonLines(result.stdout);
      const result_ = lines.at(-1);
      // What differs from run to run (the new revision, the time) is put aside; the rest must be equal byte for byte.
      const stable = (line: Record<string, unknown>) => JSON.stringify(line, (key, v) => (key === "revision_id" ? "<revision>" : key === "elapsed_ms" ? 0 : v));
      return {
        created: stable(lines[0]),
        result: stable(result_),
        revision: result_.revision_id as string,
        statuses: lines.slice(1, -1).map((l) => Object.keys(l).join(",")),
        output: readFileSync(output, "utf8").replaceAll(result_.revision_id, "<revision>"),
        stdout: result.stdout,
      };
    };
    const baseline = await deploy(undefined);
    const candidates = keysAndValues(jsonLines(baseline.stdout)).concat(["deployment_id", "revision_id", "status", "DEPLOYED"]);
    for (const secret of new Set(candidates)) {
      const seen = await deploy(secret);
      const label = `--secret S=${secret}`;
      expect(seen.created, label).toBe(baseline.created);
      expect(seen.result, label).toBe(baseline.result);
      expect(seen.output, label).toBe(baseline.output);
      for (const keys of seen.statuses) expect(keys, label).toBe("event,deployment_id,revision_id,status,elapsed_ms");
      expect(seen.stdout, label).not.toContain("***");
      expect(seen.output, label).toContain(`revision_id=<revision>\n`);
    }
  }, 90_000);

  it("dms deployments --json: the same bytes for DMS_API_KEY equal to every key and value; secrets[].value is *** in all", async () => {
    const list = (key: string) => dms(["deployments", "--json", "--limit", "2"], env({ DMS_API_KEY: key }));
    const baseline = await list("k");
    expect(baseline.code).toBe(0);
    const lines = jsonLines(baseline.stdout);
    // The secrets are where the secrets really are.
    expect(lines.flatMap((d) => d.secrets ?? []).length).toBeGreaterThan(0);
    for (const secret of lines.flatMap((d) => d.secrets ?? [])) expect(secret.value).toBe("***");
    const candidates = keysAndValues(lines).filter((v) => v !== "***" && v.trim() === v);
    expect(candidates).toEqual(expect.arrayContaining(["deployment_type", "name", "status"]));
    for (let i = 0; i < candidates.length; i += 4) {
      await Promise.all(
        candidates.slice(i, i + 4).map(async (key) => {
          const seen = await list(key);
          expect(seen.code, `DMS_API_KEY=${key}: ${seen.stderr}`).toBe(0);
          expect(seen.stdout, `DMS_API_KEY=${key}`).toBe(baseline.stdout);
        }),
      );
    }
  }, 90_000);
});

describe("a secret is hidden where it really is", () => {
  it("in a problem the server sends back: a whole --secret value, a header echo of the key, and the secret in a sentence; nothing else", async () => {
    const secret = "s3cr3t-0123456789";
    const key = "api-key-0123456789";
    const server = await startLocalServer((req, res) => {
      if (req.method === "GET") return sendJson(res, 200, { id: "d", latest_revision_id: null });
      sendJson(res, 422, {
        title: "Unprocessable Entity",
        detail: `the secret ${secret} is too weak`,
        errors: [
          { pointer: "/secrets/0/value", detail: "is too weak", value: secret, request: { "X-Api-Key": key, status: "status" } },
          { pointer: "/secrets/1/value", detail: "is fine", value: "status" },
        ],
      });
    });
    try {
      const id = "6b0d8a52-3c1e-4f7a-9b2d-1e5f3a7c9d01";
      const result = await dms(["deploy", id, "--secret", `TOKEN=${secret}`, "--secret", "SHORT=status", "--json"], {
        DMS_BASE_URL: server.baseUrl,
        DMS_API_KEY: key,
      });
      expect(result.code).toBe(6);
      const last = jsonLines(result.stdout).at(-1);
      expect(Object.keys(last)).toEqual(["event", "deployment_id", "revision_id", "status", "elapsed_ms", "exit_code", "error"]);
      expect(last.error).toMatchObject({ kind: "api_error", status: 422, method: "PATCH", path: `/v2/deployments/${id}` });
      expect(last.error.detail).toBe("the secret *** is too weak");
      expect(last.error.errors).toEqual([
        // The member named "status" keeps its name; its value is the secret "status", so it is hidden.
        { pointer: "/secrets/0/value", detail: "is too weak", value: "***", request: { "X-Api-Key": "***", status: "***" } },
        { pointer: "/secrets/1/value", detail: "is fine", value: "***" },
      ]);
      expect(result.stdout + result.stderr).not.toContain(secret);
      expect(result.stdout + result.stderr).not.toContain(key);
    } finally {
      await server.close();
    }
  });
});
