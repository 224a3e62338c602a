// A first start (the seed) and an import, stopped with SIGKILL (or SIGINT, SIGTERM) at random points, several at a time:
// whatever the moment, the next start on the file serves. And two starts at the same moment on a
// new file: exactly one serves, the other refuses naming the file. The delays are drawn from the
// fuzz seed over the time a start takes on this machine now (measured first), so the kills fall
// before, inside and after the writing of the file; the properties hold for any delay.
// DMS_SIMULATOR_UNDER_TEST=/path/to/cli.js runs them against another build.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, watch, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { seedState } from "../../../src/simulator/core/seed.js";
import { ROOT } from "../../support/document.js";
import { LONG_RUN, report, SEED, shareMs, timeout } from "./budget.js";

const CLI = process.env.DMS_SIMULATOR_UNDER_TEST ?? "dist/simulator/node/cli.js";
const work = mkdtempSync(join(tmpdir(), "dms-first-start-"));
const children = new Set<ChildProcess>();
afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
  rmSync(work, { recursive: true, force: true });
});

const v1File = join(work, "v1.json");
writeFileSync(v1File, JSON.stringify(seedState(2, Date.now())));

/** mulberry32: the delays of a run, from its seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

interface Start {
  child: ChildProcess;
  /** The URL once it serves, or undefined when it exited first. */
  url: Promise<string | undefined>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

function start(file: string, extra: string[] = []): Start {
  const child = spawn(process.execPath, [CLI, "--port", "0", "--quiet", "--seed-deployments", "3", "--state", file, ...extra], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  let stderr = "";
  let stdout = "";
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
    child.once("close", (code, signal) => {
      children.delete(child);
      resolve({ code, signal, stderr });
    }),
  );
  const url = new Promise<string | undefined>((resolve) => {
    child.stdout!.on("data", (chunk) => {
      stdout += chunk;
      const m = /^(http:\/\/\S+)\n/.exec(stdout);
      if (m) resolve(m[1]);
    });
    exited.then(() => resolve(undefined));
  });
  return { child, url, exited };
}

async function stop(s: Start, signal: NodeJS.Signals = "SIGKILL"): Promise<void> {
  s.child.kill(signal);
  // A child may inherit SIGINT ignored (test runners ignore it); the simulator listens for it only
  // once it serves. A start that goes on to serve after the signal is then stopped for good.
  if (signal !== "SIGKILL") void s.url.then((url) => url !== undefined && s.child.kill("SIGKILL"));
  await s.exited;
}

/** How a start is stopped: kill -9, and what Ctrl+C and a CI runner's cancel send. */
const SIGNALS: NodeJS.Signals[] = ["SIGKILL", "SIGKILL", "SIGINT", "SIGTERM"];

/** The deployments the simulator on `url` serves. */
async function count(url: string): Promise<number> {
  const answer = await fetch(`${url}/v2/deployments?limit=100`, { headers: { "x-api-key": "k" } });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { resources: unknown[] }).resources.length;
}

const KILLS = LONG_RUN ? 200 : 32;
const AT_ONCE = 4;
const MIN_KILLS = 16;
const WAVES_MS = 18_000;
const PAIRS = LONG_RUN ? 40 : 8;

describe("a first start stopped at any moment", () => {
  it(
    `up to ${KILLS} starts (seed and import), stopped by SIGKILL, SIGINT or SIGTERM at random points, ${AT_ONCE} at a time: the next start serves every file`,
    async () => {
      const started = Date.now();
      // How long a start takes now, under the same load (the kills run AT_ONCE at a time), so the delays span all of it.
      const t0 = Date.now();
      const probes = Array.from({ length: AT_ONCE }, (_, i) => start(join(work, `probe-${i}.sqlite`)));
      for (const probe of probes) expect(await probe.url).toBeDefined();
      const startMs = Date.now() - t0;
      await Promise.all(probes.map((p) => stop(p)));

      const next = random(SEED);
      let beforeServing = 0;
      let round = 0;
      async function one(): Promise<void> {
        const i = round++;
        // A directory per round, watched: half the rounds are killed at the k-th change of the
        // file or its journals, the others after a delay.
        const dir = join(work, `kill-${i}`);
        mkdirSync(dir);
        const file = join(dir, "state.sqlite");
        const importing = i % 2 === 1;
        const byEvent = i % 4 >= 2;
        const delay = Math.floor(next() * startMs * 1.2);
        const events = 1 + Math.floor(next() * 6);
        let seen = 0;
        let fire: () => void = () => {};
        const fired = new Promise<void>((resolve) => (fire = resolve));
        const watcher = watch(dir, () => {
          if (++seen === events) fire();
        });
        const killed = start(file, importing ? ["--import-state", v1File] : []);
        let served = false;
        void killed.url.then((url) => (served = url !== undefined));
        await Promise.race([byEvent ? fired : new Promise((resolve) => setTimeout(resolve, delay)), killed.exited]);
        watcher.close();
        await stop(killed, SIGNALS[Math.floor(next() * SIGNALS.length)]);
        if (!served) beforeServing++;
        // The next start, as the user makes it after the kill: the same command. In some seed rounds two
        // at once, which may meet a hot journal left by the kill: exactly one of them serves.
        const twice = !importing && i % 8 < 4;
        const again = start(file, importing ? ["--import-state", v1File] : []);
        const rival = twice ? start(file) : undefined;
        let url = await again.url;
        if (rival) {
          const starts = [again, rival];
          const urls = [url, await rival.url];
          const winners = starts.filter((_, k) => urls[k] !== undefined);
          const losers = starts.filter((_, k) => urls[k] === undefined);
          const why = (await Promise.all(losers.map((l) => l.exited))).map((r) => r.stderr).join("");
          expect(winners, `round ${i}, two starts after the kill: ${why}`).toHaveLength(1);
          expect(why).toMatch(/another simulator/);
          url = urls.find((u) => u !== undefined);
          expect(await count(url!), `round ${i}`).toBe(3);
          for (const winner of winners) await stop(winner);
        }
        let refused = url === undefined ? (await again.exited).stderr : "";
        if (url === undefined && importing && /already exists/.test(refused)) {
          // The import was whole before the kill: the file is a state, which --state alone serves.
          const plain = start(file);
          url = await plain.url;
          refused = url === undefined ? (await plain.exited).stderr : "";
          if (url) expect(await count(url), `round ${i}`).toBe(2);
          await stop(plain);
        } else if (url && !rival) {
          expect(await count(url), `round ${i}`).toBe(importing ? 2 : 3);
          await stop(again);
        }
        const when = byEvent ? `at change ${events} of the file` : `after ${delay} ms of a ${startMs} ms start`;
        expect(url, `round ${i} (killed ${when}): ${refused}`).toBeDefined();
      }
      // Up to KILLS; on a machine so loaded that a start takes seconds, the waves stop after
      // WAVES_MS once MIN_KILLS are done, so the test stays within its time (the property is per kill).
      // Under npm run fuzz -- --seconds N they stop when this property's share of N is spent.
      const wavesMs = LONG_RUN ? (shareMs(0.05) ?? Number.POSITIVE_INFINITY) : WAVES_MS;
      for (let wave = 0; wave < KILLS / AT_ONCE; wave++) {
        if (round >= MIN_KILLS && Date.now() - started > wavesMs) break;
        await Promise.all(Array.from({ length: AT_ONCE }, one));
      }
      report("first-start kills", round, started, { startMs, killedBeforeServing: beforeServing });
      // The delays fell inside the start, not only after it.
      expect(beforeServing).toBeGreaterThan(round / 4);
    },
    timeout(120_000, 0.05),
  );

  it(
    `two starts at the same moment on a new file, ${PAIRS} times: exactly one serves, the other refuses naming the file`,
    async () => {
      const started = Date.now();
      const pairsMs = shareMs(0.02) ?? Number.POSITIVE_INFINITY;
      for (let i = 0; i < PAIRS; i++) {
        if (i >= 2 && Date.now() - started > pairsMs) break;
        const file = join(work, `pair-${i}.sqlite`);
        const pair = [start(file), start(file)];
        const urls = await Promise.all(pair.map((s) => s.url));
        expect(urls.filter(Boolean), `pair ${i}`).toHaveLength(1);
        const loser = pair[urls.indexOf(undefined)]!;
        const { code, stderr } = await loser.exited;
        expect(code).toBe(1);
        expect(stderr).toContain(file);
        expect(stderr).toMatch(/another simulator/);
        await Promise.all(pair.map((s) => stop(s)));
      }
    },
    timeout(60_000, 0.02),
  );
});
