// Per-call overhead of the typed client against raw fetch, measured in one run: N sequential GETs of
// /v2/deployments/{id} each way against a bare local node:http server that answers a fixed deployment.
// Needs the compiled client: `npm run build:ts` first (npm run bench does it).
// Usage: node tools/bench/client.ts [N]   (default 2000)
import type { AddressInfo } from "node:net";
import { createServer } from "node:http";
import { performance } from "node:perf_hooks";
import { type BuiltClient, type ClientEntry, importBuilt } from "./built.ts";

const { createDeploymentsClient } = await importBuilt<ClientEntry>("dist/index.js");

// BENCH_QUICK=1: one short round of everything, to prove the bench runs (the fresh-clone test); its numbers mean nothing.
const QUICK = process.env.BENCH_QUICK === "1";
const N = Number(process.argv[2] ?? (QUICK ? 100 : 2000));
const WARMUP = 200;
const DEPLOYMENT_ID = "6b0d8a52-3c1e-4f7a-9b2d-1e5f3a7c9d01";
const body = JSON.stringify({
  id: DEPLOYMENT_ID,
  tenant_id: "3f9a0c1e-5b2d-4c7e-9f10-2a3b4c5d6e7f",
  name: "support",
  source: "scm_host",
  source_config: { repo_url: "https://example.com/org/support", build_on_push: true },
  source_revision_config: { repo_ref: "main", graph_config_path: "graph.json" },
  secrets: [],
  status: "READY",
  latest_revision_id: null,
  active_revision_id: null,
  created_at: "2026-01-05T09:00:00.000Z",
  updated_at: "2026-01-05T09:00:00.000Z",
});

const server = createServer((_req, res) => {
  res.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
  res.end(body);
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const client = createDeploymentsClient({ baseUrl, apiKey: "bench-key", tenantId: "bench-tenant" });
// The same two ways without the network: a fetch that answers from memory isolates the client's own
// work (URL and header building, middleware, retry wrapper, parsing) from socket noise.
const memoryFetch = async () =>
  new Response(body, { status: 200, headers: { "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(body)) } });
const memoryClient = createDeploymentsClient({ baseUrl, apiKey: "bench-key", tenantId: "bench-tenant", fetch: memoryFetch });
// What a hand-written call does: the same URL, the same headers, JSON parsing and a status check.
type Call = () => Promise<unknown>;
const rawCall =
  (fetchFn: (request: Request) => Promise<Response>): Call =>
  async () => {
    const request = new Request(`${baseUrl}/v2/deployments/${encodeURIComponent(DEPLOYMENT_ID)}`, {
      headers: { "X-Api-Key": "bench-key", "X-Tenant-Id": "bench-tenant" },
    });
    const response = await fetchFn(request);
    if (!response.ok) throw new Error(`status ${response.status}`);
    return response.json();
  };
const clientCall =
  (typedClient: BuiltClient): Call =>
  async () => {
    const { data, error } = await typedClient.GET("/v2/deployments/{deployment_id}", {
      params: { path: { deployment_id: DEPLOYMENT_ID } },
    });
    if (error) throw new Error("error response");
    return data;
  };
const ways = {
  "raw fetch": rawCall((request) => fetch(request)),
  "client.GET": clientCall(client),
  "in-memory raw": rawCall(memoryFetch),
  "in-memory client.GET": clientCall(memoryClient),
};

/** Times (ms) of one round of N calls. */
interface Round {
  mean: number;
  median: number;
  p99: number;
}

async function measure(call: Call): Promise<Round> {
  const times: number[] = [];
  for (let i = 0; i < N; i++) {
    const start = performance.now();
    await call();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const total = times.reduce((a, b) => a + b, 0);
  return { mean: total / N, median: times[Math.floor(N / 2)]!, p99: times[Math.floor(N * 0.99)]! };
}

for (const call of Object.values(ways)) for (let i = 0; i < WARMUP; i++) await call();
// Two rounds, alternating, so that neither way gets all the warm (or all the noisy) moments.
const results: Record<string, Round[]> = Object.fromEntries(Object.keys(ways).map((name) => [name, []]));
for (let round = 0; round < 2; round++) {
  for (const [name, call] of Object.entries(ways)) results[name]!.push(await measure(call));
}
server.close();

const us = (ms: number) => `${(ms * 1000).toFixed(0)} µs`;
const summary = Object.fromEntries(
  Object.entries(results).map(([name, rounds]) => [
    name,
    {
      mean: rounds.reduce((a, r) => a + r.mean, 0) / rounds.length,
      median: rounds.reduce((a, r) => a + r.median, 0) / rounds.length,
      p99: Math.max(...rounds.map((r) => r.p99)),
    },
  ]),
);
console.log(`${N} sequential GETs per way and round, 2 rounds, Node ${process.version}`);
console.log("| way | mean per call | median | p99 |");
console.log("|---|---|---|---|");
for (const [name, s] of Object.entries(summary)) console.log(`| ${name} | ${us(s.mean)} | ${us(s.median)} | ${us(s.p99)} |`);
for (const [label, rawName, clientName] of [
  ["over HTTP", "raw fetch", "client.GET"],
  ["in memory (the client's own cost)", "in-memory raw", "in-memory client.GET"],
] as const) {
  const raw = summary[rawName]!;
  const typed = summary[clientName]!;
  console.log(
    `client overhead per call, ${label}: ${us(typed.mean - raw.mean)} mean (${(((typed.mean - raw.mean) / raw.mean) * 100).toFixed(1)}%), ` +
      `${us(typed.median - raw.median)} median`,
  );
}
