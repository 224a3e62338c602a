// npm run bench, in one run:
// - In-process: GETs through `createSimulator().fetch` against a bare fetch handler that returns a
//   fixed JSON Response, both called with a `new Request` and read with `.json()`, taking turns;
//   and the time `createSimulator()` takes to be ready (default seed) in a fresh process.
// - Over HTTP: autocannon with the same request mix (get deployment, list deployments, get
//   revision) against (1) the simulator from dist/ seeded with 10,000 deployments, (2) the Prism
//   mock (silent) and (3) a bare node:http server returning a fixed JSON. Every server runs as a
//   child process in its own process group, so the RSS measured is the server's alone (summed over
//   its group: Prism forks), and the group is killed afterwards.
// Prints markdown tables and the ratios against the goals. Environment: BENCH_SECONDS (default 10),
// BENCH_ROUNDS (default 5), BENCH_CONNECTIONS (default 10), BENCH_SEED (default 10000),
// BENCH_ONLY=in-process (skip the HTTP part).
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { freePort } from "../../test/support/free-port.ts";
import { fileURLToPath, pathToFileURL } from "node:url";
import { type LoadRequest, type LoadResult, load as runLoad } from "./autocannon.ts";
import type { SimulatorCore } from "./built.ts";
import { firstLine, type ServerGroup, startGroup } from "./processes.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
// BENCH_QUICK=1: one short round of everything, to prove the bench runs (the fresh-clone test); its numbers mean nothing.
const QUICK = process.env.BENCH_QUICK === "1";
const SECONDS = Number(process.env.BENCH_SECONDS ?? (QUICK ? 1 : 10));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SEED = Number(process.env.BENCH_SEED ?? (QUICK ? 100 : 10_000));
const WARMUP_SECONDS = 2;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (QUICK ? 1 : 5));
const HEADERS = { "x-api-key": "bench", accept: "application/json" };

const document = JSON.parse(readFileSync(new URL("../../generated/openapi.json", import.meta.url), "utf8"));
// The bare server answers with the document's example deployment: a realistic fixed JSON.
const FIXED_JSON = JSON.stringify(document.components.examples.DeploymentScmHost.value);

const BARE_SERVER = `
const body = ${JSON.stringify(FIXED_JSON)};
const server = require("node:http").createServer((req, res) => {
  res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  res.end(body);
});
server.listen(0, "127.0.0.1", () => console.log("http://127.0.0.1:" + server.address().port));
`;

/** Resident memory (kB) of every process in the group. */
function groupRssKb(pgid: number): number {
  let total = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // Fields after the ")" of the command name: state ppid pgrp ...
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== pgid) continue;
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${entry}/status`, "utf8"));
      if (m) total += Number(m[1]);
    } catch {
      // The process ended while we looked.
    }
  }
  return total;
}

function load(url: string, requests: LoadRequest[], seconds: number): Promise<LoadResult> {
  return runLoad({ url, connections: CONNECTIONS, duration: seconds, headers: HEADERS, requests });
}

/** A server the HTTP part measures, and what it gathers while it does. */
interface HttpTarget {
  name: string;
  server: ServerGroup;
  requestsFor: (url: string) => Promise<LoadRequest[]>;
  url?: string;
  requests?: LoadRequest[];
  runs?: LoadResult[];
  peakKb?: number;
}

/**
 * The machine may be shared, and its load drifts: the servers take turns in ROUNDS short runs
 * (round-robin), so a busy moment does not fall on one server only. All three stay up meanwhile;
 * an idle server costs nothing.
 */
async function measureAll(targets: HttpTarget[]) {
  for (const t of targets) {
    t.url = await t.server.ready;
    t.requests = await t.requestsFor(t.url);
    await load(t.url, t.requests, WARMUP_SECONDS);
    t.runs = [];
    t.peakKb = groupRssKb(t.server.child.pid!);
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const t of targets) {
      const sampler = setInterval(() => (t.peakKb = Math.max(t.peakKb!, groupRssKb(t.server.child.pid!))), 250);
      t.runs!.push(await load(t.url!, t.requests!, SECONDS / ROUNDS));
      clearInterval(sampler);
    }
  }
  await Promise.all(targets.map((t) => t.server.stop()));
  return targets.map((t) => {
    const runs = t.runs!;
    const total = runs.reduce((sum, r) => sum + r.requests.total, 0);
    const p99s = runs.map((r) => r.latency.p99).sort((a, b) => a - b);
    return {
      name: t.name,
      rps: total / SECONDS,
      // The median of the rounds' p99.
      p99: p99s[Math.floor(p99s.length / 2)]!,
      rssMb: t.peakKb! / 1024,
      non2xx: runs.reduce((sum, r) => sum + r.non2xx + r.errors + r.timeouts, 0),
      total,
    };
  });
}

// --- in-process -------------------------------------------------------------------------------

const CORE = pathToFileURL(`${ROOT}dist/simulator/core/index.js`).href;

/** Sequential calls of `call` for `ms` milliseconds; returns how many completed. */
async function callsFor(ms: number, call: (i: number) => Promise<unknown>): Promise<number> {
  let count = 0;
  const end = performance.now() + ms;
  while (performance.now() < end) {
    for (let i = 0; i < 50; i++) await call(i);
    count += 50;
  }
  return count;
}

async function measureInProcess() {
  const { createSimulator, SEED_IDS }: SimulatorCore = await import(CORE);
  const sim = createSimulator();
  await sim.ready;
  const headers = { "x-api-key": "bench", accept: "application/json" };
  const base = "https://api.example.test";
  const paths = [`/v2/deployments/${SEED_IDS.deployment_id}`];
  const bareHandler = async (_request: Request) => new Response(FIXED_JSON, { status: 200, headers: { "content-type": "application/json" } });
  const targets: { name: string; call: (i: number) => Promise<unknown>; count: number; perSecond: number }[] = [
    {
      name: "`createSimulator().fetch`: get deployment",
      count: 0,
      perSecond: 0,
      call: (i) => sim.fetch(new Request(base + paths[i % paths.length], { headers })).then((r) => r.json()),
    },
    {
      name: `bare fetch handler (fixed ${Buffer.byteLength(FIXED_JSON)}-byte JSON Response)`,
      count: 0,
      perSecond: 0,
      call: () => bareHandler(new Request(`${base}/a`, { headers })).then((r) => r.json()),
    },
  ];
  for (const t of targets) {
    t.count = 0;
    await callsFor(WARMUP_SECONDS * 500, t.call);
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const t of targets) t.count += await callsFor((SECONDS * 1000) / ROUNDS / 2, t.call);
  }
  for (const t of targets) t.perSecond = t.count / (SECONDS / 2);

  // Ready time in a fresh process: the import is not counted, createSimulator() to `ready` is, and so is the first answer.
  const script = `
    const { createSimulator, SEED_IDS } = await import(${JSON.stringify(CORE)});
    const t0 = performance.now();
    const sim = createSimulator();
    await sim.ready;
    const t1 = performance.now();
    const r = await sim.fetch(new Request("https://api.example.test/v2/deployments/" + SEED_IDS.deployment_id, { headers: { "x-api-key": "k" } }));
    await r.json();
    const t2 = performance.now();
    console.log(JSON.stringify({ ready: t1 - t0, firstAnswer: t2 - t0 }));`;
  const starts: { ready: number; firstAnswer: number }[] = [];
  for (let i = 0; i < 5; i++) starts.push(JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" })));
  const median = (values: number[]): number => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return {
    targets,
    readyMs: median(starts.map((s) => s.ready)),
    firstAnswerMs: median(starts.map((s) => s.firstAnswer)),
  };
}

async function main() {
  const inProcess = await measureInProcess();
  if (process.env.BENCH_ONLY === "in-process") {
    const [simFetch, bareFetch] = inProcess.targets as [(typeof inProcess.targets)[0], (typeof inProcess.targets)[0]];
    console.log(inProcess.targets.map((t) => `${t.name}: ${Math.round(t.perSecond)} calls/s`).join("\n"));
    console.log(
      `ratio ${Math.round((100 * simFetch.perSecond) / bareFetch.perSecond)}%, ready ${inProcess.readyMs.toFixed(1)} ms, first answer ${inProcess.firstAnswerMs.toFixed(1)} ms`,
    );
    return;
  }

  // 1. The simulator, compiled (npm run bench runs tsc first), 10,000 deployments.
  const simulator = startGroup(process.execPath, ["dist/simulator/node/cli.js", "--port", "0", "--quiet", "--seed-deployments", String(SEED)], firstLine);
  // 2. Prism, silent (it answers any valid id with the example).
  const prismPort = await freePort();
  const prism = startGroup(
    `${ROOT}node_modules/.bin/prism`,
    ["mock", "generated/openapi.yaml", "--errors=false", "-v", "silent", "-h", "127.0.0.1", "-p", String(prismPort)],
    (_child, resolve) => {
      const poll = async () => {
        try {
          await fetch(`http://127.0.0.1:${prismPort}/v2/auth/providers`, { headers: HEADERS });
          resolve(`http://127.0.0.1:${prismPort}`);
        } catch {
          setTimeout(poll, 200);
        }
      };
      poll();
    },
  );
  // 3. A bare node:http server with a fixed JSON answer.
  const bare = startGroup(process.execPath, ["-e", BARE_SERVER], firstLine);

  const anyId = "3f0c6a4e-8d2b-4c71-9a5e-2b7d1e6f4a90";
  const results = await measureAll([
    {
      name: `simulator (${SEED.toLocaleString("en")} deployments)`,
      server: simulator,
      requestsFor: async (url) => {
        const get = (p: string) => fetch(url + p, { headers: HEADERS }).then((r) => r.json());
        // The mix walks a spread of real ids, so gets are not served from one hot entry.
        const page = await get(`/v2/deployments?limit=100&offset=${Math.floor(Math.min(4000, SEED / 2))}`);
        return page.resources.slice(0, 30).flatMap((d: { id: string; latest_revision_id: string }) => [
          { method: "GET", path: `/v2/deployments/${d.id}` },
          { method: "GET", path: "/v2/deployments?limit=20" },
          { method: "GET", path: `/v2/deployments/${d.id}/revisions/${d.latest_revision_id}` },
        ]);
      },
    },
    {
      name: "Prism mock (silent)",
      server: prism,
      requestsFor: async () => [
        { method: "GET", path: `/v2/deployments/${anyId}` },
        { method: "GET", path: "/v2/deployments?limit=20" },
        { method: "GET", path: `/v2/deployments/${anyId}/revisions/${anyId}` },
      ],
    },
    {
      name: `bare node:http (fixed ${Buffer.byteLength(FIXED_JSON)}-byte JSON)`,
      server: bare,
      requestsFor: async () => [
        { method: "GET", path: "/a" },
        { method: "GET", path: "/b" },
        { method: "GET", path: "/c" },
      ],
    },
  ]);

  const [sim, prismResult, bareResult] = results as [(typeof results)[0], (typeof results)[0], (typeof results)[0]];
  const fmt = (n: number, d = 0) => n.toLocaleString("en", { maximumFractionDigits: d, minimumFractionDigits: d });
  const [simFetch, bareFetch] = inProcess.targets as [(typeof inProcess.targets)[0], (typeof inProcess.targets)[0]];
  const lines = [
    `In-process, Node ${process.version}: one call at a time, ${SECONDS / 2} s per target in ${ROUNDS} alternating rounds after a warm-up; each call builds a \`new Request\` and reads the answer with \`.json()\`. Ready: median of 5 fresh processes.`,
    "",
    "| in-process | calls/s |",
    "|---|---:|",
    ...inProcess.targets.map((t) => `| ${t.name} | ${fmt(t.perSecond)} |`),
    `| \`createSimulator()\` ready (default seed, 30 deployments) | ${fmt(inProcess.readyMs, 1)} ms (first answer ${fmt(inProcess.firstAnswerMs, 1)} ms) |`,
    "",
    `Node ${process.version}, ${CONNECTIONS} connections, ${SECONDS} s per server in ${ROUNDS} round-robin rounds after a ${WARMUP_SECONDS} s warm-up; mix: get deployment, list deployments (limit 20), get revision. p99: median of the rounds; RSS: peak of the server's process group.`,
    "",
    "| server | req/s | p99 latency | peak RSS | non-2xx/errors |",
    "|---|---:|---:|---:|---:|",
    ...results.map((r) => `| ${r.name} | ${fmt(r.rps)} | ${r.p99} ms | ${fmt(r.rssMb, 1)} MB | ${r.non2xx} of ${fmt(r.total)} |`),
    "",
    "| goal | measured | met |",
    "|---|---:|:-:|",
    `| \`sim.fetch\` >= 50% of a bare fetch handler | ${fmt((100 * simFetch.perSecond) / bareFetch.perSecond, 0)}% | ${simFetch.perSecond >= 0.5 * bareFetch.perSecond ? "yes" : "no"} |`,
    `| \`createSimulator()\` ready < 100 ms | ${fmt(inProcess.readyMs, 1)} ms | ${inProcess.readyMs < 100 ? "yes" : "no"} |`,
    `| simulator over HTTP >= 12x Prism | ${fmt(sim.rps / prismResult.rps, 1)}x | ${sim.rps >= 12 * prismResult.rps ? "yes" : "no"} |`,
    `| simulator over HTTP >= 50% of bare node:http | ${fmt((100 * sim.rps) / bareResult.rps, 0)}% | ${sim.rps >= 0.5 * bareResult.rps ? "yes" : "no"} |`,
    `| simulator p99 < 10 ms | ${sim.p99} ms | ${sim.p99 < 10 ? "yes" : "no"} |`,
    `| simulator RSS < 150 MB | ${fmt(sim.rssMb, 1)} MB | ${sim.rssMb < 150 ? "yes" : "no"} |`,
  ];
  console.log(lines.join("\n"));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
