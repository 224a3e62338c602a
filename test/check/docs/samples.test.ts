// Every ```ts block of every page a reader reads (README.md, CONTRIBUTING.md and docs/*.md) is
// type-checked and run, so the samples cannot rot.
//
// Type-check: each block becomes a module under test/.doc-samples/ (gitignored) that imports the
// package by its name: "deployment-management-api" maps to src/index.ts and its subpaths to their
// sources, and "./x" imports resolve from the repository root, as in the pages.
//
// Run: each block is compiled to JavaScript (esbuild) with the package's imports pointing at dist/
// through package.json's "exports" (the files an installed package would load), and run by node as a
// child process against one simulator this test starts on a free port, reset before each sample.
// The samples keep the URLs a reader would use (http://127.0.0.1:4010 for the mock, :4011 for the
// simulator); the run replaces those with the test simulator's URL. A sample must exit 0.
//
// Info strings: ```ts no-run is type-checked but not run (it needs a real service, a browser or a
// test runner); ```ts no-check is neither.
import { readFileSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { transform } from "esbuild";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startSimulator, type RunningSimulator } from "../../../src/simulator/node/index.js";
import { ROOT } from "../../support/document.js";
import { PAGES } from "../../support/pages.js";
import { run } from "../../support/run.js";
import { typeCheck as typeCheckIn } from "../../support/tsc.js";

const SAMPLES = join(ROOT, "test", ".doc-samples");
const PACKAGE = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
const DOCUMENTED_URLS = /http:\/\/127\.0\.0\.1:(?:4010|4011)\b/g;

interface Sample {
  /** Where the block stands, as "docs/client.md line 12". */
  where: string;
  /** A file name for it: docs-client-line-12. */
  name: string;
  line: number;
  info: string;
  code: string;
}

function extractTypeScriptBlocks(markdown: string, page = "README.md"): Sample[] {
  const samples: Sample[] = [];
  const stem = page.replace(/\.md$/, "").replaceAll("/", "-");
  const fence = /^```(ts|typescript)\b([^\n]*)\n([\s\S]*?)^```[ \t]*$/gm;
  for (const match of markdown.matchAll(fence)) {
    const line = markdown.slice(0, match.index).split("\n").length;
    samples.push({ where: `${page} line ${line}`, name: `${stem}-line-${line}`, line, info: `${match[1]}${match[2]}`.trim(), code: match[3]! });
  }
  return samples;
}

const skipped = (sample: Sample) => /\bno-?check\b/.test(sample.info);
const runnable = (sample: Sample) => !skipped(sample) && !/\bno-?run\b/.test(sample.info);

// The samples are written as if they sat at the repository root; `toRoot` leads from their files back to it.
function asSampleModule(sample: Sample, toRoot: string): string {
  const code = sample.code.replace(/(from\s+|import\s*\(\s*)(["'])\.\//g, `$1$2${toRoot}`);
  return `// ${sample.where}\n${code}\nexport {};\n`;
}

/** The package's own subpath imports, as package.json's "exports" maps them (to dist/ and generated/). */
function exportTarget(subpath: string): string {
  const entry = PACKAGE.exports?.[subpath === "" ? "." : `.${subpath}`];
  const target = typeof entry === "string" ? entry : (entry?.import ?? entry?.default);
  if (typeof target !== "string") throw new Error(`package.json exports no "${subpath || "."}"`);
  return pathToFileURL(join(ROOT, target)).href;
}

/** A sample as a runnable ES module: types stripped, package imports pointing at the built files, the documented URLs at `baseUrl`. */
async function asRunnableModule(sample: Sample, baseUrl: string): Promise<string> {
  const { code } = await transform(sample.code, { loader: "ts", format: "esm", target: "node20" });
  return `// ${sample.where}\n${code}`
    .replace(
      /(from\s+|import\s*\(\s*)(["'])deployment-management-api((?:\/[\w.-]+)*)\2/g,
      (_, lead: string, quote: string, subpath: string) => `${lead}${quote}${exportTarget(subpath)}${quote}`,
    )
    .replace(/(from\s+|import\s*\(\s*)(["'])\.\//g, (_, lead: string, quote: string) => `${lead}${quote}${pathToFileURL(ROOT).href.replace(/\/?$/, "/")}`)
    .replace(DOCUMENTED_URLS, baseUrl);
}

// A wrong call that must not compile: if the package name stopped resolving to the real types
// (to `any`, say), this directive would be unused and tsc would fail, so a broken setup cannot pass.
const CANARY = `import { createDeploymentsClient } from "deployment-management-api";
// @ts-expect-error: baseUrl is required
createDeploymentsClient({ apiKey: "k" });
export {};
`;

/** "deployment-management-api/x" type-checks against the source file the built export comes from. */
function sourcePaths(prefix: string): Record<string, string[]> {
  const paths: Record<string, string[]> = {};
  for (const [subpath, entry] of Object.entries<any>(PACKAGE.exports ?? {})) {
    const types = typeof entry === "string" ? entry : entry?.types;
    if (typeof types !== "string" || !types.startsWith("./dist/")) continue;
    paths[`deployment-management-api${subpath.slice(1)}`] = [`${prefix}src/${types.slice("./dist/".length).replace(/\.d\.ts$/, ".ts")}`];
  }
  return paths;
}

/** A tsconfig for a directory of samples, `toRoot` being the way back to the repository root. */
function tsconfig(toRoot: string): object {
  return {
    extends: `${toRoot}tsconfig.json`,
    compilerOptions: {
      noEmit: true,
      // Samples are demonstrations: a declared-but-unused value is fine there.
      noUnusedLocals: false,
      // The package's own declarations are checked by the typecheck suite; here only the samples count.
      skipLibCheck: true,
      paths: sourcePaths(toRoot),
    },
    include: ["*.ts"],
  };
}
// test/.doc-samples/<dir>/ to the root.
const TO_ROOT = "../../../";

const typeCheck = (project: string) => typeCheckIn(project, { args: ["--pretty", "false"] });

async function runModule(file: string, timeoutMs = 30_000): Promise<{ code: number | null; output: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [file], { cwd: SAMPLES, timeout: timeoutMs, maxBuffer: 1 << 24 });
    return { code: 0, output: stdout + stderr };
  } catch (error: any) {
    return {
      code: typeof error.code === "number" ? error.code : null,
      output: `${error.stdout ?? ""}${error.stderr ?? ""}${error.killed ? `\n(killed after ${timeoutMs} ms)` : ""}`,
    };
  }
}

// Read at collection time, so that each sample is its own test named by its page and line.
const samples = PAGES.flatMap((page) => extractTypeScriptBlocks(readFileSync(join(ROOT, page), "utf8"), page));

describe("code samples of README.md, CONTRIBUTING.md and docs/", () => {
  test("the pages have TypeScript samples to check and to run", () => {
    expect(samples.filter((s) => !skipped(s)).length).toBeGreaterThan(0);
    expect(samples.filter(runnable).length).toBeGreaterThan(0);
  });

  test("every ```ts sample compiles against the package's own types", async () => {
    const project = join(SAMPLES, "check");
    await rm(project, { recursive: true, force: true });
    await mkdir(project, { recursive: true });
    await writeFile(join(project, "tsconfig.json"), JSON.stringify(tsconfig(TO_ROOT), null, 2));
    await writeFile(join(project, "canary.ts"), CANARY);
    for (const sample of samples.filter((s) => !skipped(s))) {
      await writeFile(join(project, `${sample.name}.ts`), asSampleModule(sample, TO_ROOT));
    }
    // Errors name the file, <page>-line-<N>.ts, N being the line of the block's fence in that page.
    expect(await typeCheck(join(project, "tsconfig.json"))).toBe("");
  });

  test("a sample that does not compile fails the check", async () => {
    const broken = join(SAMPLES, "broken");
    await mkdir(broken, { recursive: true });
    await writeFile(join(broken, "tsconfig.json"), JSON.stringify(tsconfig(TO_ROOT), null, 2));
    const [sample] = extractTypeScriptBlocks(
      '```ts\nimport { createDeploymentsClient } from "deployment-management-api";\ncreateDeploymentsClient({ baseUrl: 4010, apiKey: "k" });\n```\n',
    );
    await writeFile(join(broken, "sample.ts"), asSampleModule(sample!, TO_ROOT));
    expect(await typeCheck(join(broken, "tsconfig.json"))).toMatch(/sample\.ts\(3,\d+\): error TS2322/);
  });
});

describe("the samples run against the simulator", () => {
  let simulator: RunningSimulator;
  const runDir = join(SAMPLES, "run");

  beforeAll(async () => {
    await rm(runDir, { recursive: true, force: true });
    await mkdir(runDir, { recursive: true });
    // Revisions move one state per millisecond: a sample that deploys sees DEPLOYED on its first poll.
    simulator = await startSimulator({ port: 0, quiet: true, stepSeconds: 0.001 });
  });
  afterAll(async () => {
    await simulator?.close();
  });

  for (const sample of samples.filter(runnable)) {
    test(`${sample.where} runs`, async () => {
      const reset = await fetch(`${simulator.url}/_simulator/reset`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
      expect(reset.ok).toBe(true);
      const file = join(runDir, `${sample.name}.mjs`);
      await writeFile(file, await asRunnableModule(sample, simulator.url));
      const { code, output } = await runModule(file);
      expect(code, `${sample.where} failed (run ${file}):\n${output}`).toBe(0);
    });
  }

  test("a sample that fails makes its test fail: a deployment the seed does not have", async () => {
    const [sample] = extractTypeScriptBlocks(
      '```ts\nimport { createDeploymentsClient, unwrap } from "deployment-management-api";\n' +
        'const client = createDeploymentsClient({ baseUrl: "http://127.0.0.1:4011", apiKey: "k", retry: { retries: 0 } });\n' +
        'unwrap(await client.GET("/v2/deployments/{deployment_id}", { params: { path: { deployment_id: "6b0d8a52-3c1e-4f7a-9b2d-1e5f3a7c9d01" } } }));\n```\n',
    );
    const file = join(runDir, "missing-deployment.mjs");
    await writeFile(file, await asRunnableModule(sample!, simulator.url));
    const { code, output } = await runModule(file);
    expect(code).not.toBe(0);
    expect(output).toMatch(/404/);
  });
});
