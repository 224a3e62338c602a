// The packed package's hygiene and its `query` and `schemas` entries, as a consumer gets them:
// the tarball test/global-setup.ts packed (of the dist/ it compiled), then @arethetypeswrong/cli and
// publint on the tarball; the tarball installed into a fresh project with @tanstack/query-core, a
// TypeScript consumer type-checked with NodeNext resolution, a JavaScript consumer run by Node, and
// the same consumer bundled by esbuild for a browser and run in Chromium. It also measures what each
// entry costs a browser bundle (minified, gzipped), printed for docs/performance.md.
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { browserBundle } from "../support/browser-bundle.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable, launchChromium } from "../support/docs-browser.js";
import { type LocalServer, sendJson, startLocalServer } from "../client/local-server.js";
import { ROOT } from "../support/document.js";
import { packedTarball } from "../support/packed.js";
import { npm, run } from "../support/run.js";

const BIN = join(ROOT, "node_modules", ".bin");
const QUERY_CORE_VERSION = JSON.parse(await readFile(join(ROOT, "node_modules/@tanstack/query-core/package.json"), "utf8")).version as string;

let work: string;
let tarball: string;
let consumer: string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "dms-pack-entries-"));
  // The tarball test/global-setup.ts packed once for the run.
  tarball = packedTarball();
  consumer = join(work, "consumer");
  await mkdir(consumer);
  await writeFile(join(consumer, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  const install = ["install", "--no-audit", "--no-fund", "--no-save", tarball, `@tanstack/query-core@${QUERY_CORE_VERSION}`];
  await run(npm, [...install, "--offline"], { cwd: consumer }).catch(() => run(npm, [...install, "--prefer-offline"], { cwd: consumer }));
}, 180_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

const output = (error: { stdout?: string; stderr?: string }) => `${error.stdout ?? ""}${error.stderr ?? ""}`;

describe("package hygiene of the tarball", () => {
  it("@arethetypeswrong/cli finds no problem (an ESM-only package; the YAML entries are data files, not modules)", async () => {
    // The tarball npm packed, which is what `attw --pack` checks (without running prepack again here).
    const yaml = ["openapi.yaml", "arazzo/deployments.arazzo.yaml"];
    const result = await run(join(BIN, "attw"), [tarball, "--profile", "esm-only", "--exclude-entrypoints", ...yaml, "--format", "ascii"], {
      cwd: ROOT,
      maxBuffer: 1 << 24,
    }).then(
      (r) => ({ code: 0, text: output(r) }),
      (e) => ({ code: e.code as number, text: output(e) }),
    );
    expect(result.text).toMatch(/"deployment-management-api\/query"/);
    expect(result.text).toMatch(/"deployment-management-api\/schemas"/);
    expect(result.code, result.text).toBe(0);
  });

  it("publint finds nothing, warnings and suggestions included", async () => {
    const result = await run(join(BIN, "publint"), ["run", tarball, "--strict", "--level", "suggestion"], { cwd: ROOT }).then(
      (r) => ({ code: 0, text: output(r) }),
      (e) => ({ code: e.code as number, text: output(e) }),
    );
    expect(result.code, result.text).toBe(0);
    expect(result.text).toMatch(/All good/);
  });
});

// What a consumer writes: the query options with query-core's QueryClient, and a schema.
const CONSUMER = `import { QueryClient } from "@tanstack/query-core";
import { createDeploymentsClient, ApiError } from "deployment-management-api";
import { createQueries } from "deployment-management-api/query";
import { DeploymentPatch } from "deployment-management-api/schemas";

export async function main(baseUrl: string) {
  const client = createDeploymentsClient({ baseUrl, apiKey: "k", retry: { retries: 0 } });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const q = createQueries(client, { queryClient });
  const page = await queryClient.fetchQuery(q.listDeployments({ params: { query: { limit: 2 } } }));
  const names: string[] = page.resources.map((d) => d.name);
  const error = await queryClient
    .fetchQuery(q.getDeployment({ params: { path: { deployment_id: "nope" } } }))
    .then(() => undefined, (e: unknown) => (e instanceof ApiError ? { status: e.status, kind: e.kind } : String(e)));
  const valid = DeploymentPatch["~standard"].validate({ source_revision_config: { repo_ref: "main" } });
  const invalid = DeploymentPatch["~standard"].validate({ source_config: { listener_id: "x" } });
  const issues = "issues" in invalid && invalid.issues ? invalid.issues.map((i) => ({ path: i.path, message: i.message })) : [];
  return { names, error, valid: !("issues" in valid && valid.issues), issues };
}
`;

const EXPECTED = {
  names: ["one", "two"],
  error: { status: 404, kind: "not-found" },
  valid: true,
  issues: [{ path: ["source_config", "listener_id"], message: 'must match format "uuid"' }],
};

/** A server for the consumer: a page of two deployments, a 404 problem otherwise; `html` at / when given. */
function apiServer(files: Record<string, string> = {}): Promise<LocalServer> {
  return startLocalServer((req, res) => {
    const file = files[req.url.pathname];
    if (file !== undefined) {
      res.writeHead(200, { "Content-Type": req.url.pathname.endsWith(".js") ? "text/javascript" : "text/html" });
      return void res.end(file);
    }
    if (req.url.pathname === "/v2/deployments") return sendJson(res, 200, { resources: [{ name: "one" }, { name: "two" }], offset: 2 });
    res.writeHead(404, { "Content-Type": "application/problem+json" });
    res.end(JSON.stringify({ type: "urn:deployment-management-api:problem:not-found", title: "Not found", status: 404, detail: "no such deployment" }));
  });
}

async function bundle(contents: string, resolveDir: string) {
  const { text } = await browserBundle({ contents, resolveDir }, { minify: true });
  return { text, bytes: Buffer.byteLength(text), gzip: gzipSync(text).length };
}

describe("the query and schemas entries from the installed tarball", () => {
  it("type-check in a TypeScript consumer with NodeNext resolution", async () => {
    await writeFile(join(consumer, "consumer.ts"), CONSUMER);
    const compilerOptions = {
      target: "ES2022",
      module: "NodeNext",
      moduleResolution: "NodeNext",
      lib: ["ES2022", "DOM"],
      strict: true,
      noEmit: true,
      types: [],
      skipLibCheck: false,
    };
    await writeFile(join(consumer, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["consumer.ts"] }));
    const diagnostics = await run(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"], { cwd: consumer }).then(
      () => "",
      (e) => output(e),
    );
    expect(diagnostics).toBe("");
  });

  it("run in Node", async () => {
    const server = await apiServer();
    try {
      const js = await build({ stdin: { contents: CONSUMER, loader: "ts" }, write: false, format: "esm", logLevel: "silent" });
      await writeFile(join(consumer, "consumer.mjs"), `${js.outputFiles[0]!.text}\nconsole.log(JSON.stringify(await main(process.argv[2])));\n`);
      const { stdout } = await run(process.execPath, ["consumer.mjs", server.baseUrl], { cwd: consumer });
      expect(JSON.parse(stdout)).toEqual(EXPECTED);
    } finally {
      await server.close();
    }
  });

  it.runIf(chromiumAvailable())(
    "run bundled by esbuild for a browser, in Chromium",
    async () => {
      const { text } = await bundle(`${CONSUMER}\n(globalThis as any).consumerMain = main;\n`, consumer);
      expect(text).not.toMatch(/from\s*["']node:/);
      const server = await apiServer({ "/": "<!doctype html><script type=module src=/app.js></script>", "/app.js": text });
      const browser = await launchChromium();
      try {
        const page = await browser.newPage();
        const errors: string[] = [];
        page.on("pageerror", (error) => errors.push(String(error)));
        await page.goto(`${server.baseUrl}/`);
        await page.waitForFunction("typeof globalThis.consumerMain === 'function'");
        const result = await page.evaluate("globalThis.consumerMain(location.origin)");
        expect(errors).toEqual([]);
        expect(result).toEqual(EXPECTED);
      } finally {
        await browser.close();
        await server.close();
      }
    },
    60_000,
  );

  it("costs a browser bundle only what it imports: one schema is a small part of all of them, and the client alone carries no validator", async () => {
    const sizes = {
      client: await bundle(`export { createDeploymentsClient, unwrap } from "deployment-management-api";`, consumer),
      query: await bundle(`export { createQueries } from "deployment-management-api/query";`, consumer),
      clientAndQuery: await bundle(
        `export { createDeploymentsClient, unwrap } from "deployment-management-api"; export { createQueries } from "deployment-management-api/query";`,
        consumer,
      ),
      queryWithCore: await bundle(
        `export { createQueries } from "deployment-management-api/query"; export { QueryClient } from "@tanstack/query-core";`,
        consumer,
      ),
      oneSchema: await bundle(`export { DeploymentPatch } from "deployment-management-api/schemas";`, consumer),
      smallSchema: await bundle(`export { ListenerPatch } from "deployment-management-api/schemas";`, consumer),
      allSchemas: await bundle(`export * from "deployment-management-api/schemas";`, consumer),
    };
    console.info(
      `bundle sizes (esbuild --minify, browser; bytes / gzip): ${Object.entries(sizes)
        .map(([name, s]) => `${name} ${s.bytes} / ${s.gzip}`)
        .join("; ")}`,
    );
    expect(sizes.smallSchema.bytes * 20).toBeLessThan(sizes.allSchemas.bytes);
    expect(sizes.oneSchema.bytes * 3).toBeLessThan(sizes.allSchemas.bytes);
    // The query entry adds its own code to the client's, not a validator or TanStack Query.
    expect(sizes.query.text).not.toMatch(/must match format/);
    expect(sizes.clientAndQuery.bytes).toBeLessThan(sizes.client.bytes + 8_000);
    expect(sizes.client.text).not.toMatch(/must match format/);
  });
});
