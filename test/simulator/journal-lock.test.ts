// One simulator per state file: a second one started on the same file (by mistake, or on a port
// already taken) is refused before it reads or folds anything, and the first goes on untouched. A
// lock left by a process that is gone (kill -9) is taken over.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, expect, it } from "vitest";
import { createStateFilePersistence, journalPath, lockPath, StateFileError } from "../../src/simulator/node/state-file.js";
import { ROOT } from "../support/document.js";

const work = mkdtempSync(join(tmpdir(), "dms-lock-"));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  rmSync(work, { recursive: true, force: true });
});

const HEADERS = { "x-api-key": "lock-test", "content-type": "application/json" };

/** A process that only waits, to own a lock in the unit tests. */
function idleProcess(): ChildProcess {
  const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60_000)"], { stdio: "ignore" });
  children.push(child);
  return child;
}

function startCli(file: string) {
  const child = spawn(process.execPath, ["dist/simulator/node/cli.js", "--port", "0", "--state", file, "--quiet", "--seed-deployments", "3"], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let stderr = "";
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", (line) => resolve(line.trim()));
    exited.then((code) => reject(new Error(`exited ${code}: ${stderr}`)));
  });
  url.catch(() => {}); // a start that is meant to fail is awaited through `exited`
  return { child, url, exited, stderr: () => stderr };
}

it("a lock held by a running process refuses the load and leaves every file as it was", async () => {
  const file = join(work, "held.json");
  const owner = idleProcess();
  writeFileSync(lockPath(file), `${owner.pid}\n`);
  writeFileSync(journalPath(file), "");
  const error = await createStateFilePersistence(file)
    .load()
    .then(
      () => undefined,
      (e: unknown) => e,
    );
  expect(error).toBeInstanceOf(StateFileError);
  expect((error as Error).message).toContain(`another simulator, process ${owner.pid}, is using it (${lockPath(file)}`);
  expect(readFileSync(lockPath(file), "utf8")).toBe(`${owner.pid}\n`);
  expect(existsSync(file)).toBe(false);
  owner.kill();
});

it("a lock left by a process that is gone is taken over, and removed on close", async () => {
  const file = join(work, "stale.json");
  const gone = idleProcess();
  gone.kill("SIGKILL");
  await new Promise((resolve) => gone.once("exit", resolve));
  writeFileSync(lockPath(file), `${gone.pid}\n`);
  const persistence = createStateFilePersistence(file);
  expect(await persistence.load()).toBeUndefined();
  expect(readFileSync(lockPath(file), "utf8")).toBe(`${process.pid}\n`);
  await persistence.close();
  expect(existsSync(lockPath(file))).toBe(false);
});

it("a second CLI on the same state file exits 1 naming the first; the first keeps working and keeps its writes", async () => {
  const file = join(work, "shared.json");
  const first = startCli(file);
  const url = await first.url;
  const id = ((await (await fetch(`${url}/v2/deployments?limit=1`, { headers: HEADERS })).json()) as any).resources[0].id as string;
  const patch = (customUrl: string) =>
    fetch(`${url}/v2/deployments/${id}`, { method: "PATCH", headers: HEADERS, body: JSON.stringify({ source_config: { custom_url: customUrl } }) });
  expect((await patch("https://one.example.com")).status).toBe(200);
  const journalBefore = readFileSync(journalPath(file));

  const second = startCli(file);
  expect(await second.exited).toBe(1);
  expect(second.stderr()).toContain(`another simulator, process ${first.child.pid}, is using it`);
  expect(readFileSync(journalPath(file))).toEqual(journalBefore); // it did not fold the journal under the first

  expect((await patch("https://two.example.com")).status).toBe(200);
  first.child.kill("SIGTERM");
  expect(await first.exited).toBe(0);
  expect(existsSync(lockPath(file))).toBe(false);

  const third = startCli(file);
  const again = await third.url;
  const deployment = (await (await fetch(`${again}/v2/deployments/${id}`, { headers: HEADERS })).json()) as any;
  expect(deployment.source_config.custom_url).toBe("https://two.example.com");
  third.child.kill("SIGTERM");
  expect(await third.exited).toBe(0);
});
