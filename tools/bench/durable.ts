// npm run bench, part 3: what durable writes cost. Two simulators from dist/, each seeded with
// 10,000 deployments, one in memory and one with --state (a SQLite file, WAL with synchronous=FULL,
// in a temp dir on the local disk). Against each, in the same run and in alternating rounds: 10
// concurrent writers PATCH source_config.custom_url of deployments spread over all 10,000, first
// alone (the write rate), then with 2 readers GETting single deployments as fast as they can
// (the read latency while writes go on); autocannon measures both. Then, on the durable one, one
// deployment gets 500 revisions whose configs hold large valid values (a 30,000-character repo_ref):
// a revision PATCH after them is timed against the first ones (a write must not cost the history).
// Goals: durable PATCH/s at least 50% of the in-memory rate; GET p99 under 20 ms while they run;
// a PATCH after 500 large revisions at most 1.5x the first.
// Environment: BENCH_SECONDS (default 10, per simulator and phase), BENCH_ROUNDS (default 5),
// BENCH_SEED (default 10000), BENCH_WRITERS (default 10), BENCH_READERS (default 2),
// BENCH_REVISIONS (default 500).
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type LoadOptions, type LoadRequest, type LoadResult, load } from "./autocannon.ts";
import { firstLine, startGroup } from "./processes.ts";

// BENCH_QUICK=1: one short round of everything, to prove the bench runs (the fresh-clone test); its numbers mean nothing.
const QUICK = process.env.BENCH_QUICK === "1";
const SECONDS = Number(process.env.BENCH_SECONDS ?? (QUICK ? 1 : 10));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (QUICK ? 1 : 5));
const SEED = Number(process.env.BENCH_SEED ?? (QUICK ? 100 : 10_000));
const WRITERS = Number(process.env.BENCH_WRITERS ?? 10);
const READERS = Number(process.env.BENCH_READERS ?? 2);
const REVISIONS = Number(process.env.BENCH_REVISIONS ?? (QUICK ? 20 : 500));
const WARMUP_SECONDS = 2;
const HEADERS = { "x-api-key": "bench", accept: "application/json" };

const work = mkdtempSync(join(tmpdir(), "dms-bench-durable-"));
process.on("exit", () => rmSync(work, { recursive: true, force: true }));

/** The simulator CLI in its own process group; `url` resolves with its URL (its first stdout line). */
function startSimulator(extraArgs: string[]): { url: Promise<string>; stop: () => Promise<void> } {
  const args = ["dist/simulator/node/cli.js", "--port", "0", "--quiet", "--seed-deployments", String(SEED), ...extraArgs];
  const { ready, stop } = startGroup(process.execPath, args, firstLine);
  return { url: ready, stop };
}

/** Every deployment's id, or only those of one source. */
async function allIds(url: string, source?: string): Promise<string[]> {
  const ids: string[] = [];
  for (let offset = 0; ; ) {
    const page = await (await fetch(`${url}/v2/deployments?limit=100&offset=${offset}`, { headers: HEADERS })).json();
    ids.push(...page.resources.filter((d: { source: string }) => source === undefined || d.source === source).map((d: { id: string }) => d.id));
    if (page.resources.length < 100) return ids;
    offset = page.offset;
  }
}

let patchCount = 0;
function run(url: string, options: Omit<LoadOptions, "url">): Promise<LoadResult> {
  return load({ url, headers: HEADERS, ...options });
}

/** One simulator the bench measures, and what it gathers on it. */
interface Target {
  name: string;
  args: string[];
  server?: ReturnType<typeof startSimulator>;
  url?: string;
  startMs?: number;
  ids?: string[];
  alone?: Phase[];
  mixed?: Phase[];
}

/** The writers' figures of one phase, and the readers' when they ran beside them. */
interface Phase {
  writes: LoadResult;
  reads: LoadResult | undefined;
}

/** One phase of a round against one simulator: writers, with or without readers beside them. */
async function phase(target: Target, seconds: number, withReaders: boolean): Promise<Phase> {
  const url = target.url!;
  const ids = target.ids!;
  // A stride through all ids, so writes spread over every deployment, not one hot record.
  const patch: LoadRequest = {
    method: "PATCH",
    setupRequest: (request) => {
      const i = patchCount++;
      return {
        ...request,
        path: `/v2/deployments/${ids[(i * 7919) % ids.length]}`,
        headers: { ...request.headers, "content-type": "application/json" },
        body: JSON.stringify({ source_config: { custom_url: `https://bench-${i}.example.com` } }),
      };
    },
  };
  const get: LoadRequest = {
    method: "GET",
    setupRequest: (request) => ({ ...request, path: `/v2/deployments/${ids[Math.floor(Math.random() * ids.length)]}` }),
  };
  const [writes, reads] = await Promise.all([
    run(url, { connections: WRITERS, duration: seconds, requests: [patch] }),
    withReaders && READERS > 0 ? run(url, { connections: READERS, duration: seconds, requests: [get] }) : undefined,
  ]);
  return { writes, reads };
}

/** Times revision PATCHes of one deployment, one after the other (ms each). */
async function revisionPatches(url: string, id: string, count: number, size: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const body = JSON.stringify({ source_revision_config: { repo_ref: `bench-${patchCount++}-${"r".repeat(size)}` } });
    const started = performance.now();
    const response = await fetch(`${url}/v2/deployments/${id}`, { method: "PATCH", headers: { ...HEADERS, "content-type": "application/json" }, body });
    await response.arrayBuffer();
    times.push(performance.now() - started);
    if (response.status !== 200) throw new Error(`revision PATCH answered ${response.status}`);
  }
  return times;
}

/**
 * A revision PATCH of a deployment with a short history (the first ones) against one of a
 * deployment that has REVISIONS large revisions, in alternating pairs, so that both see the same
 * disk (fsync times on a shared machine drift by 10x within seconds). Medians of SAMPLES each.
 */
async function history(target: Target): Promise<{ first: number; after: number }> {
  const url = target.url!;
  // repo_ref applies to scm_host deployments only (src/shared/source-rules.ts): the service refuses it elsewhere.
  const [long = "", short = ""] = await allIds(url, "scm_host");
  const SAMPLES = 40;
  await revisionPatches(url, long, REVISIONS, 30_000);
  const first: number[] = [];
  const after: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    first.push(...(await revisionPatches(url, short, 1, 30_000)));
    after.push(...(await revisionPatches(url, long, 1, 30_000)));
  }
  return { first: median(first), after: median(after) };
}

const fmt = (n: number, digits = 0) => n.toLocaleString("en", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
  const stateFile = join(work, "state.sqlite");
  const targets: [Target, Target] = [
    { name: "in memory", args: [] },
    // A first start: it creates the file and saves the seed.
    { name: "durable (--state)", args: ["--state", stateFile] },
  ];
  for (const t of targets) {
    const started = performance.now();
    const server = startSimulator(t.args);
    t.server = server;
    t.url = await server.url;
    t.startMs = performance.now() - started;
    t.ids = await allIds(t.url);
    if (t.ids.length !== SEED) throw new Error(`${t.name}: ${t.ids.length} deployments, expected ${SEED}`);
    await phase(t, WARMUP_SECONDS, true);
    t.alone = [];
    t.mixed = [];
  }
  for (let r = 0; r < ROUNDS; r++) {
    for (const t of targets) {
      t.alone!.push(await phase(t, SECONDS / ROUNDS, false));
      t.mixed!.push(await phase(t, SECONDS / ROUNDS, true));
    }
  }
  const durableTarget = targets[1];
  const revisions = await history(durableTarget);
  const memoryRevisions = await history(targets[0]);
  const mib = (file: string) => (existsSync(file) ? statSync(file).size / 1048576 : 0);
  const files = `database ${fmt(mib(stateFile), 1)} MiB, -wal ${fmt(mib(`${stateFile}-wal`), 1)} MiB`;
  await Promise.all(targets.map((t) => t.server!.stop()));

  const failures = (r: LoadResult | undefined) => (r ? r.non2xx + r.errors + r.timeouts : 0);
  const rows = targets.map((t) => {
    const alone = t.alone!;
    const mixed = t.mixed!;
    const all = [...alone, ...mixed];
    return {
      name: t.name,
      patchRate: alone.reduce((sum, r) => sum + r.writes.requests.total, 0) / SECONDS,
      patchP99: median(alone.map((r) => r.writes.latency.p99)),
      mixedPatchRate: mixed.reduce((sum, r) => sum + r.writes.requests.total, 0) / SECONDS,
      getRate: mixed.reduce((sum, r) => sum + (r.reads?.requests.total ?? 0), 0) / SECONDS,
      // The worst round's p99: a goal on GET latency must hold all the time, not on average.
      getP99: Math.max(...mixed.map((r) => r.reads?.latency.p99 ?? 0)),
      failed: all.reduce((sum, r) => sum + failures(r.writes) + failures(r.reads), 0),
      total: all.reduce((sum, r) => sum + r.writes.requests.total + (r.reads?.requests.total ?? 0), 0),
      startMs: t.startMs!,
    };
  });
  const [memory, durable] = rows as [(typeof rows)[0], (typeof rows)[0]];
  const ratio = durable.patchRate / memory.patchRate;
  console.log(
    [
      `Durable writes: Node ${process.version}, ${fmt(SEED)} deployments, ${WRITERS} writers (PATCH source_config), alone and then with ${READERS} readers (GET deployment) beside them, ${SECONDS} s per simulator and phase in ${ROUNDS} alternating rounds after a ${WARMUP_SECONDS} s warm-up. PATCH p99: median round; GET p99: worst round. Start: a first start, which saves the seed. State file at the end: ${files}.`,
      "",
      "| simulator | PATCH/s (writers alone) | PATCH p99 | PATCH/s with readers | GET/s | GET p99 | start | non-2xx/errors |",
      "|---|---:|---:|---:|---:|---:|---:|---:|",
      ...rows.map(
        (r) =>
          `| ${r.name} | ${fmt(r.patchRate)} | ${r.patchP99} ms | ${fmt(r.mixedPatchRate)} | ${fmt(r.getRate)} | ${r.getP99} ms | ${fmt(r.startMs)} ms | ${r.failed} of ${fmt(r.total)} |`,
      ),
      "",
      "| goal | measured | met |",
      "|---|---:|:-:|",
      `| durable PATCH/s >= 50% of in memory (${WRITERS} writers) | ${fmt(100 * ratio)}% | ${ratio >= 0.5 ? "yes" : "no"} |`,
      `| GET p99 < 20 ms while durable writers run | ${durable.getP99} ms | ${durable.getP99 < 20 ? "yes" : "no"} |`,
      `| durable revision PATCH after ${REVISIONS} revisions of 30,000-character values <= 1.5x the first (median of 40 alternating pairs) | ${fmt(revisions.after, 1)} ms vs ${fmt(revisions.first, 1)} ms: ${fmt(revisions.after / revisions.first, 2)}x (in memory: ${fmt(memoryRevisions.after, 1)} vs ${fmt(memoryRevisions.first, 1)} ms) | ${revisions.after <= 1.5 * revisions.first ? "yes" : "no"} |`,
    ].join("\n"),
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
