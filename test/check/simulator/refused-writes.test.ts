// A refused request changes nothing, in memory or on disk, and a restart on the state file serves
// what was answered. Generated write requests (test/check/fuzz/requests.ts: PATCHes, valid and
// mutated) and a table of refused control and API writes go to `startSimulator({ stateFile })` over
// HTTP; around each, the simulator's whole state as its API answers it and the bytes of the file and
// its write-ahead log are compared. At the end the simulator is stopped and started again on the
// file: it answers every list and deployment as it did before the stop.
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import { SEED_IDS } from "../../../src/simulator/core/seed.js";
import { type RunningSimulator, startSimulator } from "../../../src/simulator/node/index.js";
import { budget, report, timeout } from "../fuzz/budget.js";
import { anyCase, type Case, describeCase } from "../fuzz/requests.js";
import { sendHttp, type WireRequest } from "../fuzz/targets.js";

let dir: string;
let file: string;
let running: RunningSimulator;
// A step of an hour: no revision moves while the test runs, so the state changes only by a request.
const OPTIONS = { port: 0, quiet: true, stepSeconds: 3600 } as const;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "refused-writes-"));
  file = join(dir, "state.sqlite");
  running = await startSimulator({ ...OPTIONS, stateFile: file });
});
afterAll(async () => {
  await running?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The bytes of the state file and its write-ahead log. */
function disk(): string {
  const hash = createHash("sha256");
  for (const path of [file, `${file}-wal`]) hash.update(existsSync(path) ? readFileSync(path) : "-");
  return hash.digest("hex");
}

/** Everything the simulator's API and control API answer of its state (the clock's `now` left out: it runs). */
async function state(sim: RunningSimulator): Promise<string> {
  const get = async (path: string) => {
    const response = await sim.simulator.fetch(`http://127.0.0.1${path}`, { headers: { "x-api-key": "dev" } });
    expect(response.status, path).toBe(200);
    return response.json() as Promise<any>;
  };
  const { now: _runs, ...status } = await get("/_simulator");
  const deployments = (await get("/v2/deployments?limit=100")).resources as { id: string }[];
  const revisions = await Promise.all(deployments.map((d) => get(`/v2/deployments/${d.id}/revisions?limit=100`)));
  const listeners = await get("/v2/listeners?limit=100");
  return JSON.stringify({ status, deployments, revisions, listeners });
}

const key: [string, string] = ["x-api-key", "dev"];
const json: [string, string] = ["content-type", "application/json"];
const post = (path: string, body: string, headers: [string, string][] = [key, json]): WireRequest => ({
  method: "POST",
  target: `/_simulator/${path}`,
  headers,
  body: new TextEncoder().encode(body),
});
const deployment = `/v2/deployments/${SEED_IDS.deployment_id}`;
const patch = (body: string, headers: [string, string][] = [key, json], target = deployment): WireRequest => ({
  method: "PATCH",
  target,
  headers,
  body: new TextEncoder().encode(body),
});
/** Writes every simulator refuses, of every kind: media type, JSON, bounds, schema, source rules, tenant, control bodies. */
const REFUSED: WireRequest[] = [
  ...['{"seconds":-1}', '{"seconds":"1"}', '{"seconds":1e400}', "[]", "x", '{"__proto__":{"seconds":1}}'].map((b) => post("advance", b)),
  ...['{"status":200}', '{"deployment_id":"x","status":"FAILED"}', `{"deployment_id":"${SEED_IDS.deployment_id}","status":"DEPLOYED"}`].map((b) =>
    post("fail-next", b),
  ),
  ...['{"ms":-1}', '{"minMs":5,"maxMs":1}', "null"].map((b) => post("latency", b)),
  ...['{"status":200}', '{"operation":"nope","status":500}', '{"count":-1,"status":500}'].map((b) => post("faults", b)),
  post("reset", "{}", [key, ["content-type", "text/plain"]]),
  post("reset", "{}", [key, ["origin", "https://evil.example"], json]),
  post("reset", "{}", [["x-api-key", "dev"], ["host", "evil.example"], json]),
  ...[
    "",
    "{}x",
    "null",
    '{"name":"x"}',
    '{"source_config":{"cpu":1e400}}',
    '{"source_revision_config":{"image_uri":"r/x:1"}}',
    `{"a":${"[".repeat(40)}${"]".repeat(40)}}`,
  ].map((b) => patch(b)),
  patch('{"source_revision_config":{"repo_ref":"x"}}', [key, json, json]),
  patch('{"source_revision_config":{"repo_ref":"x"}}', [key, ["content-type", "text/plain"]]),
  patch('{"source_revision_config":{"repo_ref":"x"}}', [key, json, ["x-tenant-id", SEED_IDS.other_tenant_id]]),
  patch('{"source_revision_config":{"repo_ref":"x"}}', [key, json, ["x-tenant-id", "nope"]]),
  patch('{"source_revision_config":{"repo_ref":"x"}}', [json]),
  patch('{"source_revision_config":{"repo_ref":"x"}}', [key, json], `${deployment}#x`),
  patch('{"name":1}', [key, json], `/v2/listeners/${SEED_IDS.listener_id}`),
];

async function refusedChangesNothing(request: WireRequest, describe: string): Promise<number> {
  const [beforeState, beforeDisk] = [await state(running), disk()];
  const answer = await sendHttp(running.url, request);
  expect(answer.status, `${describe}\n${answer.text.slice(0, 300)}`).toBeLessThan(500);
  if (answer.status >= 400) {
    expect(await state(running), `${describe}: ${answer.status} changed the state`).toBe(beforeState);
    expect(disk(), `${describe}: ${answer.status} changed the file`).toBe(beforeDisk);
  }
  return answer.status;
}

it("a refused write changes nothing, in memory or on disk", async () => {
  for (const request of REFUSED) {
    const status = await refusedChangesNothing(request, `${request.method} ${request.target} ${request.headers.join(" ")}`);
    expect(status, `${request.method} ${request.target} ${new TextDecoder().decode(request.body)}`).toBeGreaterThanOrEqual(400);
  }
});

it(
  "generated writes: each refused one changes nothing; a restart serves what was answered",
  async () => {
    const started = Date.now();
    let cases = 0;
    const writes = anyCase().filter((c: Case) => c.method === "PATCH");
    await fc
      .assert(
        fc.asyncProperty(writes, async (c) => {
          cases++;
          await refusedChangesNothing(c, describeCase(c));
        }),
        budget(60, 0.2),
      )
      .finally(() => report("refused-writes", cases, started));
    // Accepted control writes are state too: the clock moved (revisions with it) and a failure asked for.
    for (const request of [post("advance", '{"seconds":7200}'), post("fail-next", `{"deployment_id":"${SEED_IDS.deployment_id}","status":"BUILD_FAILED"}`)]) {
      expect((await sendHttp(running.url, request)).status).toBe(200);
    }
    expect((await sendHttp(running.url, patch('{"source_revision_config":{"repo_ref":"after-advance"}}'))).status).toBe(200);
    const answered = await state(running);
    await running.close();
    running = await startSimulator({ ...OPTIONS, stateFile: file });
    expect(await state(running)).toBe(answered);
  },
  timeout(120_000, 0.2),
);
