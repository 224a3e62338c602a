// Start-up of the in-process simulator (dist/simulator/core/index.js), request validators compiled at
// build time (generated/validators.js, ajv standalone code) against the same simulator with ajv
// compiling them at run time (tools/bench/start-runtime-validators.ts swapped in by a module
// hook, which also loads the dist/ twin of each src/ module that stand-in names). Each run is a fresh Node process, alternating the two, and measures:
//   import   loading the simulator's modules
//   ready    createSimulator() with the default seed until `ready` resolves
//   first    the first request of each of the twelve operations (each compiles its validators at run time)
// and the browser bundle of the simulator entry (esbuild, minified, gzipped) with each kind of validator.
// Prints a markdown table of medians. Environment: BENCH_START_RUNS (default 15). Needs dist/ (npm run bench compiles it).
import { execFile } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { build, type Plugin } from "esbuild";
import type { SimulatorCore } from "./built.ts";
import type { HookUrls } from "./runtime-validators-hook.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
// BENCH_QUICK=1: one short round of everything, to prove the bench runs (the fresh-clone test); its numbers mean nothing.
const QUICK = process.env.BENCH_QUICK === "1";
const RUNS = Number(process.env.BENCH_START_RUNS ?? (QUICK ? 1 : 15));
const CORE = new URL("../../dist/simulator/core/index.js", import.meta.url).href;
const RUNTIME_VALIDATORS = new URL("./start-runtime-validators.ts", import.meta.url).href;
const SRC = new URL("../../src/", import.meta.url).href;
const TOOLS = new URL("../", import.meta.url).href;
const DIST = new URL("../../dist/", import.meta.url).href;

/** The compiled twin of a src/ module: src/shared/walk.ts is dist/shared/walk.js. */
const distTwin = (url: string): string => DIST + url.slice(SRC.length).replace(/\.ts$/, ".js");

async function child(variant: string): Promise<void> {
  if (variant === "runtime") {
    const urls: HookUrls = { runtimeValidators: RUNTIME_VALIDATORS, tools: TOOLS, src: SRC, dist: DIST };
    (await import("node:module")).register(new URL("./runtime-validators-hook.ts", import.meta.url), { data: urls });
  }
  // The PATCH bodies are the document's own examples.
  const { default: document } = await import("../../generated/openapi.json", { with: { type: "json" } });
  const examples: Record<string, { value: unknown }> = document.components.examples;
  const example = (name: string) => JSON.stringify(examples[name]!.value);
  const t0 = performance.now();
  const { createSimulator, SEED_IDS: ids }: SimulatorCore = await import(CORE);
  const t1 = performance.now();
  const sim = createSimulator();
  await sim.ready;
  const t2 = performance.now();
  const base = "https://api.example.test";
  const json = { "x-api-key": "bench", "content-type": "application/json" };
  const d = `${base}/v2/deployments/${ids.deployment_id}`;
  const requests = [
    `${base}/v2/deployments?limit=5&status=READY`,
    d,
    new Request(d, { method: "PATCH", headers: json, body: example("DeploymentPatchNewBranch") }),
    `${d}/revisions?limit=5`,
    `${d}/revisions/${ids.revision_id}`,
    `${base}/v2/listeners?limit=5`,
    new Request(`${base}/v2/listeners/${ids.listener_id}`, { method: "PATCH", headers: json, body: example("ListenerPatchNamespaces") }),
    `${base}/v2/auth/providers`,
    `${base}/v2/auth/providers/${ids.provider_id}`,
    `${base}/v2/auth/agents/${ids.agent_id}/connections`,
    `${base}/v1/integrations/scm/${ids.scm_integration_id}/repos`,
    `${base}/v1/integrations/forge/scm/${ids.forge_integration_id}/repos`,
  ];
  const statuses: number[] = [];
  for (const r of requests) {
    const response = await sim.fetch(typeof r === "string" ? new Request(r, { headers: json }) : r);
    await response.text();
    statuses.push(response.status);
  }
  const t3 = performance.now();
  process.stdout.write(JSON.stringify({ import: t1 - t0, ready: t2 - t1, first: t3 - t2, statuses }));
}

/** One child's figures (ms) and the statuses of its first answers. */
interface StartSample {
  import: number;
  ready: number;
  first: number;
  statuses: number[];
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function bundleSize(variant: string): Promise<{ minified: number; gzipped: number }> {
  const runtimeValidators: Plugin = {
    name: "runtime-validators",
    setup: (b) => {
      b.onResolve({ filter: /generated\/validators\.js$/ }, () => ({ path: fileURLToPath(RUNTIME_VALIDATORS) }));
      // As in the child processes: the stand-in's src/ modules are bundled from their compiled twins.
      b.onResolve({ filter: /\/src\// }, (args) => {
        if (!args.importer.startsWith(fileURLToPath(TOOLS))) return undefined;
        return { path: fileURLToPath(distTwin(new URL(args.path, pathToFileURL(args.importer)).href)) };
      });
    },
  };
  const plugins = variant === "runtime" ? [runtimeValidators] : [];
  const result = await build({
    stdin: { contents: `export { createSimulator, SEED_IDS } from ${JSON.stringify(fileURLToPath(CORE))};`, resolveDir: ROOT, loader: "js" },
    bundle: true,
    write: false,
    minify: true,
    platform: "browser",
    format: "esm",
    logLevel: "silent",
    plugins,
  });
  const code = result.outputFiles[0]!.contents;
  return { minified: code.length, gzipped: gzipSync(code, { level: 9 }).length };
}

async function main() {
  const run = promisify(execFile);
  const samples: Record<string, StartSample[]> = { standalone: [], runtime: [] };
  for (let i = 0; i < RUNS; i++) {
    for (const variant of i % 2 ? ["runtime", "standalone"] : ["standalone", "runtime"]) {
      const { stdout } = await run(process.execPath, [fileURLToPath(import.meta.url), "--child", variant], { cwd: ROOT });
      samples[variant]!.push(JSON.parse(stdout));
    }
  }
  const statuses = new Set(
    Object.values(samples)
      .flat()
      .map((s) => s.statuses.join(",")),
  );
  if (statuses.size !== 1) throw new Error(`the two kinds of validator answered differently: ${[...statuses].join(" | ")}`);
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  const rows = [];
  for (const variant of ["standalone", "runtime"]) {
    const s = samples[variant]!;
    const size = await bundleSize(variant);
    const [imp = 0, ready = 0, first = 0] = (["import", "ready", "first"] as const).map((k) => median(s.map((x) => x[k])));
    rows.push(
      `| ${variant === "standalone" ? "compiled at build time (standalone)" : "compiled by ajv at run time"} | ${imp.toFixed(1)} | ${ready.toFixed(1)} | ${first.toFixed(1)} | ${(imp + ready + first).toFixed(1)} | ${kb(size.minified)} / ${kb(size.gzipped)} |`,
    );
  }
  console.log(`createSimulator() start-up, median of ${RUNS} fresh processes (ms); statuses of the first answers: ${[...statuses][0]}`);
  console.log(
    "| request validators | import | ready | first answer of all 12 operations | total | browser bundle of the simulator entry (minified / gzipped) |",
  );
  console.log("|---|---|---|---|---|---|");
  for (const row of rows) console.log(row);
}

if (process.argv[2] === "--child") await child(process.argv[3]!);
else await main();
