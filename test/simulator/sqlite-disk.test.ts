// --state on real disks that fail: a 1 MiB tmpfs filled up (507, nothing changed, working again
// once space is freed) and an ext4 file system (on a loop device) that the kernel remounts
// read-only under a running simulator (500, nothing changed). Needs root for mount; without it the
// tests say so and are skipped.
import { execFileSync } from "node:child_process";
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, truncateSync, unlinkSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { SEED_IDS } from "../../src/simulator/core/seed.js";
import { problemDetails } from "../../src/shared/problems.js";
import { type Client, startTestSimulator } from "./support.js";

const work = mkdtempSync(join(tmpdir(), "dms-sqlite-disk-"));
const full = join(work, "full");
const ext4 = join(work, "ext4");
const image = join(work, "ext4.img");
let why = "";
let whyExt4 = "";

beforeAll(() => {
  try {
    mkdirSync(full);
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=1m,mode=0700", "tmpfs", full], { stdio: "pipe" });
  } catch (error) {
    why = (error as Error).message.split("\n")[0]!;
    return;
  }
  try {
    mkdirSync(ext4);
    closeSync(openSync(image, "w"));
    truncateSync(image, 16 * 1024 * 1024);
    execFileSync("mkfs.ext4", ["-q", "-F", image], { stdio: "pipe" });
    execFileSync("mount", ["-o", "loop", image, ext4], { stdio: "pipe" });
  } catch (error) {
    whyExt4 = (error as Error).message.split("\n")[0]!;
  }
});

afterAll(() => {
  for (const point of [full, ext4]) {
    try {
      execFileSync("umount", ["-l", point], { stdio: "pipe" });
    } catch {
      // Not mounted (mount was refused).
    }
  }
  rmSync(work, { recursive: true, force: true });
});

const path = `/v2/deployments/${SEED_IDS.deployment_id}`;
/** A valid value near the request bounds: each PATCH with it adds a revision of about 60 KB. */
const big = (n: number) => ({ source_revision_config: { repo_ref: `big-${n}-${"r".repeat(60_000)}` } });

/** Fills the file system under `dir` to the last byte; returns the filler file. */
function fill(dir: string): string {
  const filler = join(dir, "filler");
  const fd = openSync(filler, "w");
  const chunk = Buffer.alloc(4096, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    expect((error as NodeJS.ErrnoException).code).toBe("ENOSPC");
  } finally {
    closeSync(fd);
  }
  return filler;
}

it("a full disk answers 507 problem+json and keeps nothing of the write; once space is freed writes work again, and a restart has every acknowledged one", async (context) => {
  if (why) context.skip(`mount refused: ${why}`);
  const file = join(full, "state.sqlite");
  const first = await startTestSimulator({ stateFile: file, seedDeployments: 3, stepSeconds: 3600 });
  const client = first.client;
  const filler = fill(full);
  let refused: Awaited<ReturnType<typeof client.patch>> | undefined;
  let last: any;
  for (let n = 0; n < 40 && !refused; n++) {
    const answer = await client.patch(path, big(n));
    if (answer.status === 200) last = answer.body;
    else refused = answer;
  }
  expect(refused?.status).toBe(507);
  expect(refused?.contentType).toMatch(/^application\/problem\+json/);
  expect(refused?.body.type).toBe(problemDetails("insufficient-storage", "").type);
  const shown = await client.ok(path);
  if (last) expect(shown.latest_revision_id).toBe(last.latest_revision_id);
  expect((await client.ok(`${path}/revisions?limit=100`)).resources.map((r: any) => r.id)).not.toContain(undefined);

  unlinkSync(filler);
  const after = await client.patch(path, { source_config: { custom_url: "https://after-full.example.com" } });
  expect(after.status).toBe(200);
  const revisions = await client.ok(`${path}/revisions?limit=100`);
  await first.simulator.close();

  const second = await startTestSimulator({ stateFile: file, seedDeployments: 3, stepSeconds: 3600 });
  try {
    expect((await second.client.ok(path)).source_config.custom_url).toBe("https://after-full.example.com");
    expect(await second.client.ok(`${path}/revisions?limit=100`)).toEqual(revisions);
  } finally {
    await second.simulator.close();
  }
});

// A file system cannot be remounted read-only while a file on it is open for writing (EBUSY), and
// SQLite keeps its file open: what a running simulator meets is the kernel's own emergency
// read-only remount, which ext4 makes on an I/O error. `mount -o remount,abort` makes exactly that.
it("a disk the kernel remounts read-only under the simulator answers 500 problem+json and changes nothing; a restart has every acknowledged write", async (context) => {
  if (why) context.skip(`mount refused: ${why}`);
  if (whyExt4) context.skip(`no ext4 on a loop device here: ${whyExt4}`);
  const file = join(ext4, "state.sqlite");
  const patch = (client: Client, n: number) => client.patch(path, { source_config: { custom_url: `https://write-${n}.example.com` } });
  const { simulator, client } = await startTestSimulator({ stateFile: file, seedDeployments: 3, stepSeconds: 3600 });
  try {
    expect((await patch(client, 1)).status).toBe(200);
    const before = await client.ok(path);
    execFileSync("mount", ["-o", "remount,abort", ext4], { stdio: "pipe" });
    expect(
      readFileSync("/proc/mounts", "utf8")
        .split("\n")
        .find((line) => line.includes(` ${ext4} `)),
    ).toMatch(/\bro\b|emergency_ro/);
    for (let n = 2; n < 4; n++) {
      const answer = await patch(client, n);
      expect(answer.status).toBe(500);
      expect(answer.contentType).toMatch(/^application\/problem\+json/);
      expect(answer.body.type).toBe(problemDetails("internal", "").type);
    }
    expect(await client.ok(path)).toEqual(before);
  } finally {
    await simulator.close();
  }
  execFileSync("umount", [ext4], { stdio: "pipe" });
  execFileSync("mount", ["-o", "loop", image, ext4], { stdio: "pipe" });
  const again = await startTestSimulator({ stateFile: file, seedDeployments: 3 });
  try {
    expect((await again.client.ok(path)).source_config.custom_url).toBe("https://write-1.example.com");
  } finally {
    await again.simulator.close();
  }
});
