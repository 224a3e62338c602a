// --state FILE: every acknowledged write survives a restart, also a kill -9 of a real child
// process (the compiled CLI); a corrupt file stops the start with a clear message and is left as it was.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, describe, expect, it } from "vitest";
import { startSimulator, StateFileError } from "../../src/simulator/node/index.js";
import { SEED_IDS } from "../../src/simulator/core/seed.js";
import { ROOT } from "../support/document.js";
import { Client, startTestSimulator } from "./support.js";

const work = mkdtempSync(join(tmpdir(), "dms-simulator-state-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const deploymentPath = `/v2/deployments/${SEED_IDS.deployment_id}`;

/** Writes that touch every part of the state, and what they should leave behind. */
async function makeChanges(client: Client) {
  const patched = (
    await client.patch(deploymentPath, { source_revision_config: { repo_ref: "persisted" }, source_config: { custom_url: "https://kept.example.com" } })
  ).body;
  const listener = (await client.patch(`/v2/listeners/${SEED_IDS.listener_id}`, { version: "9.9.9", compute_config: { k8s_namespaces: ["kept"] } })).body;
  expect((await client.request("POST", "/_simulator/advance", { seconds: 120 })).status).toBe(200);
  expect((await client.request("POST", "/_simulator/fail-next", { deployment_id: SEED_IDS.deployment_id, status: "BUILD_FAILED" })).status).toBe(200);
  return { patched, listener };
}

async function expectChangesKept(client: Client, expected: Awaited<ReturnType<typeof makeChanges>>) {
  const d = await client.ok(deploymentPath);
  expect(d.latest_revision_id).toBe(expected.patched.latest_revision_id);
  expect(d.source_config.custom_url).toBe("https://kept.example.com");
  expect(d.source_revision_config.repo_ref).toBe("persisted");
  // 120 simulated seconds at 2 s a step: the revision was DEPLOYED before the restart.
  expect(d.active_revision_id).toBe(expected.patched.latest_revision_id);
  const listener = (await client.ok("/v2/listeners?limit=100")).resources.find((l: any) => l.id === SEED_IDS.listener_id);
  expect(listener).toEqual(expected.listener);
  // The pending failure survived too.
  const next = (await client.patch(deploymentPath, { secrets: [] })).body.latest_revision_id;
  await client.advance(60);
  expect((await client.ok(`${deploymentPath}/revisions/${next}`)).status).toBe("BUILD_FAILED");
}

describe("state file, in process", () => {
  it("a missing file is created from the seed; a restart keeps every write", async () => {
    const file = join(work, "in-process.json");
    const first = await startTestSimulator({ stateFile: file, stepSeconds: 2 });
    // The seed is saved at once.
    expect(existsSync(file)).toBe(true);
    const expected = await makeChanges(first.client);
    await first.simulator.close();
    const second = await startTestSimulator({ stateFile: file, stepSeconds: 2 });
    try {
      await expectChangesKept(second.client, expected);
    } finally {
      await second.simulator.close();
    }
  });

  for (const [label, content] of <Array<[string, string]>>[
    ["not JSON", '{"format": "dms-simulator-state", "deployments": [tru'],
    ["JSON of another shape", '{"hello": "world"}'],
    [
      "a damaged deployment",
      JSON.stringify({
        format: "dms-simulator-state",
        version: 1,
        clock_offset_ms: 0,
        last_created_ms: 0,
        deployments: [{}],
        listeners: [],
        providers: [],
        connections: {},
        repositories: {},
      }),
    ],
  ]) {
    it(`a file holding ${label} stops the start with a clear message and is left untouched`, async () => {
      const file = join(work, `corrupt-${label.replace(/\W+/g, "-")}.json`);
      writeFileSync(file, content);
      const error = await startSimulator({ port: 0, quiet: true, stateFile: file }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(StateFileError);
      expect((error as Error).message).toContain(file);
      expect((error as Error).message).toMatch(/left untouched/);
      expect(readFileSync(file, "utf8")).toBe(content);
    });
  }
});

describe("state file, child process killed with SIGKILL", () => {
  // The compiled CLI npm test's global setup emitted (dist/, from src/ as it is now).
  const build = ROOT;
  const children: ChildProcess[] = [];

  afterAll(() => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });

  function run(args: string[]): { child: ChildProcess; url: Promise<string>; exit: Promise<{ code: number | null; signal: string | null; stderr: string }> } {
    const child = spawn(process.execPath, [join(build, "dist/simulator/node/cli.js"), "--port", "0", "--quiet", ...args], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    let stderr = "";
    child.stderr!.on("data", (chunk) => (stderr += chunk));
    const exit = new Promise<{ code: number | null; signal: string | null; stderr: string }>((resolve) =>
      child.on("exit", (code, signal) => resolve({ code, signal, stderr })),
    );
    const url = new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once("line", resolve);
      exit.then(({ code, stderr }) => reject(new Error(`simulator exited ${code}: ${stderr}`)));
    });
    url.catch(() => {}); // a test that expects the exit does not wait for the URL
    return { child, url, exit };
  }

  it("kill -9 right after the last acknowledged write loses nothing; SIGTERM exits cleanly", async () => {
    const file = join(work, "child.json");
    const first = run(["--state", file]);
    const expected = await makeChanges(new Client(await first.url));
    first.child.kill("SIGKILL");
    expect((await first.exit).signal).toBe("SIGKILL");

    const second = run(["--state", file]);
    await expectChangesKept(new Client(await second.url), expected);
    second.child.kill("SIGTERM");
    expect((await second.exit).code).toBe(0);
  });

  it("a corrupt state file: exit code 1, a message naming the file, the file untouched", async () => {
    const file = join(work, "child-corrupt.json");
    writeFileSync(file, "{ half a state");
    const { exit } = run(["--state", file]);
    const { code, stderr } = await exit;
    expect(code).toBe(1);
    expect(stderr).toContain(file);
    expect(stderr).toMatch(/left untouched/);
    expect(readFileSync(file, "utf8")).toBe("{ half a state");
  });
});
