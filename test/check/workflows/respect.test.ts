// The shipped Arazzo description run by Redocly Respect (the real `redocly respect`, a child
// process) against a real simulator. Respect waits the description's own 5 s between two polls,
// so with a simulator that moves a state every 50 ms each wait is two polls: the first sees the
// revision just created, the second its end. The tests read what each poll saw from Respect's
// HAR log, so "stopped at the first poll that saw the failure" is a count, not a time.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { REVISION_STATUSES, TERMINAL_REVISION_STATUSES } from "../../../generated/constants.js";
import { type RunningSimulator, startSimulator } from "../../../src/simulator/node/index.js";
import { ROOT } from "../../support/document.js";

const DESCRIPTION = join(ROOT, "arazzo/deployments.arazzo.yaml");
const REDOCLY = join(ROOT, "node_modules/.bin/redocly");
const API_KEY = `respect-key-${process.pid}`;

let simulator: RunningSimulator;
let work: string;
let ids: { scm: string[]; image: string[] };

async function api(path: string, init: { method?: string; body?: unknown } = {}): Promise<any> {
  const response = await fetch(simulator.url + path, {
    method: init.method ?? "GET",
    headers: { "X-Api-Key": API_KEY, ...(init.body ? { "Content-Type": "application/json" } : {}) },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  if (!response.ok) throw new Error(`${init.method ?? "GET"} ${path} -> ${response.status} ${await response.text()}`);
  return response.json();
}

beforeAll(async () => {
  // Only API_KEY is accepted, so a run that sent no key (or the text "undefined") would fail.
  simulator = await startSimulator({ port: 0, stepSeconds: 0.05, quiet: true, apiKeys: [API_KEY] });
  work = await mkdtemp(join(tmpdir(), "dms-respect-"));
  // The seed's revisions still in progress end first, so that no active revision changes under a test.
  await api("/_simulator/advance", { method: "POST", body: { seconds: 3600 } });
  const page = await api("/v2/deployments?limit=100");
  const ready = page.resources.filter((d: any) => d.active_revision_id !== null && d.tenant_id === page.resources[0].tenant_id);
  ids = {
    scm: ready.filter((d: any) => d.source === "scm_host").map((d: any) => d.id),
    image: ready.filter((d: any) => d.source === "internal_docker").map((d: any) => d.id),
  };
});
afterAll(async () => {
  await simulator?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

interface RespectRun {
  code: number;
  output: string;
  /** Respect's HAR log: one entry per request it sent, with the response it got. */
  har: { log: { entries: { request: { method: string; url: string }; response: { content: { text?: string } } }[] } };
  harText: string;
}

/**
 * The status each GET of this revision read, in order. The HAR log has one entry per request;
 * Respect's JSON report does not serve here, as it keeps one object per step, retries included.
 */
function polls(run: RespectRun, deploymentId: string, revisionId: string): string[] {
  const url = `${simulator.url}/v2/deployments/${deploymentId}/revisions/${revisionId}`;
  return run.har.log.entries
    .filter((e) => e.request.method.toUpperCase() === "GET" && e.request.url === url)
    .map((e) => JSON.parse(e.response.content.text ?? "{}").status);
}

async function respect(workflow: string, inputs: Record<string, string>, server = simulator.url, apiKey = API_KEY): Promise<RespectRun> {
  const harFile = join(work, `${workflow}-${Math.random().toString(36).slice(2)}.har`);
  const args = ["respect", DESCRIPTION, "--server", `deployments=${server}`, "--workflow", workflow, "--har-output", harFile];
  for (const [name, value] of Object.entries(inputs)) args.push("--input", `${name}=${value}`);
  const env = {
    // The node that runs the tests (Node 24) runs Respect too; the key comes from the environment.
    PATH: [dirname(process.execPath), process.env.PATH].join(delimiter),
    HOME: process.env.HOME,
    DMS_API_KEY: apiKey,
    NO_COLOR: "1",
    REDOCLY_TELEMETRY: "off",
  };
  const { code, output } = await new Promise<{ code: number; output: string }>((resolve) =>
    execFile(REDOCLY, args, { cwd: ROOT, env, maxBuffer: 1 << 24 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, output: stdout + stderr }),
    ),
  );
  const harText = await readFile(harFile, "utf8");
  return { code, output, har: JSON.parse(harText), harText };
}

const IN_PROGRESS = REVISION_STATUSES.filter((s) => !(TERMINAL_REVISION_STATUSES as readonly string[]).includes(s));

/** The polls saw the revision in progress until the last one, which saw `status`. */
function expectStoppedAt(polls: string[], status: string): void {
  expect(polls.at(-1)).toBe(status);
  expect(polls.length).toBeGreaterThanOrEqual(1);
  for (const seen of polls.slice(0, -1)) expect(IN_PROGRESS).toContain(seen);
}

describe("the Arazzo description", () => {
  it("puts in its criteria exactly the document's revision statuses", async () => {
    const doc = parse(await readFile(DESCRIPTION, "utf8"));
    const listed = (criteria: any[]) => {
      const regex = criteria.find((c) => c.type === "regex" && c.context === "$response.body#/status");
      return /^\^\((.*)\)\$$/.exec(regex.condition)![1]!.split("|").sort();
    };
    const actions = doc.components.failureActions;
    expect(actions.endWhenRevisionEnded.type).toBe("end");
    expect(listed(actions.endWhenRevisionEnded.criteria)).toEqual(TERMINAL_REVISION_STATUSES.filter((s) => s !== "DEPLOYED").sort());
    expect(actions.pollWhileInProgress.type).toBe("retry");
    expect(listed(actions.pollWhileInProgress.criteria)).toEqual([...IN_PROGRESS].sort());
    // Every terminal status ends the wait through a criterion, never through the retry budget.
    const poll = doc.workflows.find((w: any) => w.workflowId === "waitForRevision").steps[0];
    expect(poll.successCriteria.find((c: any) => c.type === "regex").condition).toBe("^DEPLOYED$");
    // The budget suits the real service, whose documentation waits up to 30 minutes.
    expect(actions.pollWhileInProgress.retryAfter * actions.pollWhileInProgress.retryLimit).toBe(30 * 60);
  });

  it("every workflow the issue names is there, with the key read from the environment", async () => {
    const doc = parse(await readFile(DESCRIPTION, "utf8"));
    expect(doc.workflows.map((w: any) => w.workflowId).sort()).toEqual(["deployImage", "deployRef", "rollback", "waitForRevision"]);
    for (const workflow of doc.workflows) expect(workflow.inputs.required).toContain("env");
    expect(doc.sourceDescriptions).toEqual([{ name: "deployments", url: "../generated/openapi.yaml", type: "openapi" }]);
  });

  it("the rendered docs page links the description and docs/workflows.md, and both links resolve", async () => {
    const page = await readFile(join(ROOT, "generated/docs/index.html"), "utf8");
    for (const target of ["../../arazzo/deployments.arazzo.yaml", "../../docs/workflows.md"]) {
      expect(page).toContain(`href="${target}"`);
      await expect(readFile(join(ROOT, "generated/docs", target), "utf8")).resolves.toMatch(/arazzo/i);
    }
  });
});

describe.concurrent("redocly respect against the simulator", () => {
  it("deployRef: patches the ref and succeeds once the new revision is DEPLOYED; the key is never printed", async () => {
    const id = ids.scm[0]!;
    const run = await respect("deployRef", { deployment_id: id, repo_ref: "release/7.1" });
    expect(run.code, run.output).toBe(0);
    const deployment = await api(`/v2/deployments/${id}`);
    expect(deployment.source_revision_config.repo_ref).toBe("release/7.1");
    expect(deployment.active_revision_id).toBe(deployment.latest_revision_id);
    expectStoppedAt(polls(run, id, deployment.latest_revision_id), "DEPLOYED");
    expect(run.output + run.harText).not.toContain(API_KEY);
    // An ordinary poll is a crossed DEPLOYED check followed by a retry, and the summary says passed.
    expect(run.output).toMatch(/Workflows: 1 passed/);
    const lines = run.output.split("\n");
    lines.forEach((line, i) => {
      if (/✗ success criteria check - \^DEPLOYED\$/.test(line)) expect(lines.slice(i + 1, i + 8).join("\n"), run.output).toMatch(/Retrying step pollRevision/);
    });
  });

  it.each([
    ["empty", ""],
    ["refused", "not-the-key"],
  ])("a key that is %s fails at the first step, and the failure names DMS_API_KEY", async (_name, key) => {
    for (const [workflow, inputs] of [
      ["deployRef", { deployment_id: ids.scm[0]!, repo_ref: "main" }],
      ["waitForRevision", { deployment_id: ids.scm[0]!, revision_id: ids.scm[0]! }],
    ] as const) {
      const run = await respect(workflow, inputs, simulator.url, key);
      expect(run.code, run.output).not.toBe(0);
      expect(run.output, workflow).toContain("the API key (DMS_API_KEY in the environment) is missing or refused");
    }
  });

  it("deployRef with a failing build: fails at the first poll that reads BUILD_FAILED, not at the end of its polls", async () => {
    const id = ids.scm[1]!;
    await api("/_simulator/fail-next", { method: "POST", body: { deployment_id: id, status: "BUILD_FAILED" } });
    const run = await respect("deployRef", { deployment_id: id, repo_ref: "main" });
    expect(run.code).not.toBe(0);
    expect(run.output).toMatch(/Workflows: 1 failed/);
    const deployment = await api(`/v2/deployments/${id}`);
    expectStoppedAt(polls(run, id, deployment.latest_revision_id), "BUILD_FAILED");
    expect((await api(`/v2/deployments/${id}/revisions/${deployment.latest_revision_id}`)).status).toBe("BUILD_FAILED");
  });

  it("rollback: deploys again the commit an earlier revision was built from, which becomes the active revision", async () => {
    const id = ids.scm[2]!;
    const before = await api(`/v2/deployments/${id}`);
    const earlier = await api(`/v2/deployments/${id}/revisions/${before.active_revision_id}`);
    expect(earlier.source_revision_config.repo_commit_sha).toMatch(/^[0-9a-f]{40}$/);
    expect((await respect("deployRef", { deployment_id: id, repo_ref: "feature/new" })).code).toBe(0);
    const moved = await api(`/v2/deployments/${id}`);
    expect(moved.active_revision_id).not.toBe(earlier.id);

    const run = await respect("rollback", { deployment_id: id, revision_id: earlier.id });
    expect(run.code, run.output).toBe(0);
    const after = await api(`/v2/deployments/${id}`);
    expectStoppedAt(polls(run, id, after.latest_revision_id), "DEPLOYED");
    expect(after.active_revision_id).not.toBe(moved.active_revision_id);
    expect(after.active_revision_id).toBe(after.latest_revision_id);
    const restored = await api(`/v2/deployments/${id}/revisions/${after.active_revision_id}`);
    expect(restored.source_revision_config).toEqual({
      ...earlier.source_revision_config,
      repo_ref: earlier.source_revision_config.repo_commit_sha,
    });
  });

  it("rollback of an image deployment deploys the earlier image again", async () => {
    const id = ids.image[0]!;
    const before = await api(`/v2/deployments/${id}`);
    const earlier = await api(`/v2/deployments/${id}/revisions/${before.active_revision_id}`);
    expect((await respect("deployImage", { deployment_id: id, image_uri: "registry.example.com/next:9.9.9" })).code).toBe(0);
    expect((await api(`/v2/deployments/${id}`)).source_revision_config.image_uri).toBe("registry.example.com/next:9.9.9");
    const run = await respect("rollback", { deployment_id: id, revision_id: earlier.id });
    expect(run.code, run.output).toBe(0);
    const after = await api(`/v2/deployments/${id}`);
    expect(after.source_revision_config.image_uri).toBe(earlier.source_revision_config.image_uri);
    expect(after.active_revision_id).toBe(after.latest_revision_id);
  });

  it("deployRef fails at the PATCH when the PATCH created no revision, instead of waiting on the older one", async () => {
    // A proxy that turns every PATCH into one that creates no revision (source_config alone), as a
    // service that found nothing to build might: latest_revision_id still names the DEPLOYED one.
    const target = new URL(simulator.url);
    const proxy = createServer((incoming, outgoing) => {
      const chunks: Buffer[] = [];
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
      incoming.on("end", () => {
        const body = incoming.method === "PATCH" ? Buffer.from('{"source_config":{"build_on_push":true}}') : Buffer.concat(chunks);
        const headers = { ...incoming.headers, host: target.host, "content-length": String(body.length) };
        const forward = request({ host: target.hostname, port: target.port, path: incoming.url, method: incoming.method, headers }, (answer) => {
          outgoing.writeHead(answer.statusCode!, answer.headers);
          answer.pipe(outgoing);
        });
        forward.end(body);
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    try {
      const id = ids.scm[4]!;
      const before = await api(`/v2/deployments/${id}`);
      const run = await respect("deployRef", { deployment_id: id, repo_ref: "nothing-new" }, `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`);
      expect(run.code).not.toBe(0);
      expect(run.har.log.entries.map((e) => e.request.method.toUpperCase())).toEqual(["GET", "PATCH"]);
      expect((await api(`/v2/deployments/${id}`)).latest_revision_id).toBe(before.latest_revision_id);
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
  });

  it("waitForRevision on a revision that a newer one INTERRUPTED fails at its first poll", async () => {
    // The seed has older revisions that ended INTERRUPTED; the status filter finds one.
    let found: { id: string; revision: string } | undefined;
    for (const id of [...ids.scm, ...ids.image]) {
      const [revision] = (await api(`/v2/deployments/${id}/revisions?status=INTERRUPTED&limit=1`)).resources;
      if (revision) {
        found = { id, revision: revision.id };
        break;
      }
    }
    expect(found, "a seeded INTERRUPTED revision").toBeDefined();
    const run = await respect("waitForRevision", { deployment_id: found!.id, revision_id: found!.revision });
    expect(run.code).not.toBe(0);
    expect(polls(run, found!.id, found!.revision)).toEqual(["INTERRUPTED"]);
  });
});
