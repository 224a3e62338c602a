// The published package, as a consumer gets it: the tarball test/global-setup.ts packed, installed
// into a temporary project, type-check a TypeScript consumer with NodeNext resolution, and run
// a JavaScript consumer against a local node:http server.
import { existsSync } from "node:fs";
import { lstat, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, posix } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startLocalServer, sendJson, type LocalServer } from "../client/local-server.js";
import { chromiumAvailable, launchChromium } from "../support/docs-browser.js";
import { ROOT } from "../support/document.js";
import { packEntry, packedTarball, type PackEntry } from "../support/packed.js";
import { PAGES } from "../support/pages.js";
import { npm, run } from "../support/run.js";
import { TSC, TSC7, typeCheck as typeCheckIn } from "../support/tsc.js";

let work: string;
let consumer: string;
let packed: PackEntry;
let installOutput = "";

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "dms-pack-"));
  // The tarball test/global-setup.ts packed once for the run.
  packed = packEntry();
  consumer = join(work, "consumer");
  await mkdir(consumer);
  await writeFile(join(consumer, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  const install = ["install", "--no-audit", "--no-fund", "--no-save", packedTarball()];
  // The dependencies come from the npm cache; --prefer-offline where the cache lacks something.
  const installed = await run(npm, [...install, "--offline"], { cwd: consumer }).catch(() => run(npm, [...install, "--prefer-offline"], { cwd: consumer }));
  installOutput = `${installed.stdout}${installed.stderr}`;
}, 120_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe("npm pack", () => {
  it("installs without a word about the package itself: its manifest has no lifecycle script", async () => {
    const warnings = installOutput.split("\n").filter((line) => /warn/i.test(line) && line.includes("deployment-management-api"));
    expect(warnings).toEqual([]);
    const manifest = JSON.parse(await readFile(join(consumer, "node_modules/deployment-management-api/package.json"), "utf8"));
    for (const lifecycle of ["preinstall", "install", "postinstall", "prepare", "prepack", "postpack", "prepublishOnly"]) {
      expect(manifest.scripts?.[lifecycle], lifecycle).toBeUndefined();
    }
  });

  it("packs the compiled client, its types and the generated files, not the sources or tests", () => {
    const paths = packed.files.map((f) => f.path);
    for (const file of [
      "package.json",
      "dist/index.js",
      "dist/index.d.ts",
      "dist/client/client.js",
      "generated/schema.d.ts",
      "generated/constants.js",
      "generated/constants.d.ts",
      "generated/openapi.json",
    ]) {
      expect(paths).toContain(file);
    }
    expect(paths.filter((p) => p.startsWith("src/") || p.startsWith("test/") || p.endsWith(".tsbuildinfo"))).toEqual([]);
    const client = packed.files.filter((f) => f.path.startsWith("dist/") && !f.path.startsWith("dist/simulator/"));
    const clientBytes = client.reduce((sum, f) => sum + f.size, 0);
    console.info(
      `packed ${packed.filename}: ${packed.size} bytes (${packed.unpackedSize} unpacked, ${packed.entryCount} files); ` +
        `client dist/ without the simulator: ${client.length} files, ${clientBytes} bytes`,
    );
  });

  it("the client's module graph (dist/index.js and what it imports) has no node: imports and no dependency but openapi-fetch", async () => {
    const installed = join(consumer, "node_modules/deployment-management-api");
    const seen = new Set<string>();
    const bare = new Set<string>();
    const queue = ["dist/index.js"];
    while (queue.length > 0) {
      const file = queue.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      const source = await readFile(join(installed, file), "utf8");
      for (const [, specifier] of source.matchAll(/(?:import|export)[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g)) {
        if (!specifier) continue;
        if (specifier.startsWith(".")) queue.push(posix.normalize(posix.join(posix.dirname(file), specifier)));
        else bare.add(specifier);
      }
    }
    expect(seen).toContain("generated/constants.js");
    expect([...bare]).toEqual(["openapi-fetch"]);
  });
});

/** Writes a NodeNext tsconfig for the consumer project, with a browser lib. */
async function writeConsumerTsconfig(name: string, files: string[], options: Record<string, unknown>): Promise<void> {
  const compilerOptions = {
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    lib: ["ES2022", "DOM", "DOM.Iterable"],
    strict: true,
    noEmit: true,
    ...options,
  };
  await writeFile(join(consumer, name), JSON.stringify({ compilerOptions, files }));
}

/** Runs this repository's tsc on a consumer tsconfig; returns its diagnostics, "" when it compiles. */
const typeCheck = (project: string, tsc = TSC) => typeCheckIn(project, { tsc, cwd: consumer });

describe("a consumer project", () => {
  it("type-checks a TypeScript consumer with NodeNext resolution and a browser lib", async () => {
    await writeConsumerTsconfig("tsconfig.json", ["consumer.ts"], { types: [], skipLibCheck: false });
    await writeFile(
      join(consumer, "consumer.ts"),
      `import {
  ApiError, createDeploymentsClient, paginate, unwrap, waitForRevision, deployRevision,
  REVISION_STATUSES, TERMINAL_REVISION_STATUSES, DEPLOYMENT_STATUSES, SOURCES,
  type Deployment, type DeploymentPatch, type Revision, type RevisionStatus,
} from "deployment-management-api";
import type { paths } from "deployment-management-api/schema";

const client = createDeploymentsClient({ baseUrl: "http://127.0.0.1:4010", apiKey: "k", tenantId: "t" });
export async function main(deploymentId: string): Promise<Revision> {
  const deployment: Deployment = unwrap(await client.GET("/v2/deployments/{deployment_id}", { params: { path: { deployment_id: deploymentId } } }));
  for await (const d of paginate(client, "/v2/deployments", { query: { status: "READY" } })) console.log(d.name);
  const patch: DeploymentPatch = { source_revision_config: { repo_ref: "main" } };
  // @ts-expect-error read-only fields are not part of a patch body
  await client.PATCH("/v2/deployments/{deployment_id}", { params: { path: { deployment_id: deploymentId } }, body: { status: "READY" } });
  const { revision } = await deployRevision(client, deploymentId, patch, { onStatus: (s: RevisionStatus) => console.log(s) });
  const statuses: readonly string[] = [...REVISION_STATUSES, ...TERMINAL_REVISION_STATUSES, ...DEPLOYMENT_STATUSES, ...SOURCES];
  type ListPath = keyof paths;
  const p: ListPath = "/v2/listeners";
  if (deployment.latest_revision_id === null) throw new ApiError(new Response(null, { status: 404 }), statuses.join() + p);
  return waitForRevision(client, deploymentId, revision.id ?? "", { timeoutMs: 1000 });
}
`,
    );
    expect(await typeCheck("tsconfig.json")).toBe("");
  });

  it.runIf(existsSync(TSC7))("type-checks the same consumer with TypeScript 7", async () => {
    expect(await typeCheck("tsconfig.json", TSC7)).toBe("");
  });

  it("type-checks the pages' ts and tsx samples that import the package against the installed package, with the peers they import", async () => {
    const markdown = (await Promise.all(PAGES.map((page) => readFile(join(ROOT, page), "utf8")))).join("\n");
    // Samples that import the package and otherwise only packages (not this repository's files) are
    // what a consumer can paste: React, TanStack Query and Form, MSW, Vite, the MCP SDK, vitest.
    const blocks = [...markdown.matchAll(/^```(ts|tsx)\b([^\n]*)\n([\s\S]*?)^```[ \t]*$/gm)].filter((m) => !/\bno-?check\b/.test(m[2]!));
    const samples = blocks
      .map((m) => ({ extension: m[1]!, code: m[3]!, imports: [...m[3]!.matchAll(/from "([^"]+)"/g)].map((i) => i[1]!) }))
      .filter(({ imports }) => imports.some((i) => i.startsWith("deployment-management-api")) && imports.every((i) => !i.startsWith(".")));
    expect(samples.length).toBeGreaterThanOrEqual(15);
    // The other packages they import, installed as a consumer would (from this repository's node_modules).
    const packageOf = (specifier: string) =>
      specifier
        .split("/")
        .slice(0, specifier.startsWith("@") ? 2 : 1)
        .join("/");
    const peers = new Set(samples.flatMap(({ imports }) => imports.filter((i) => !i.startsWith("deployment-management-api")).map(packageOf)));
    for (const name of [...peers, "@types/react", "@types/node"]) {
      const target = join(consumer, "node_modules", name);
      if (existsSync(target)) continue;
      await mkdir(join(target, ".."), { recursive: true });
      await symlink(join(ROOT, "node_modules", name), target, "dir");
    }
    const files = samples.map(({ extension }, i) => `readme-sample-${i + 1}.${extension}`);
    await Promise.all(samples.map(({ code }, i) => writeFile(join(consumer, files[i]!), `${code}\nexport {};\n`)));
    // Samples for scripts may use Node globals.
    await writeConsumerTsconfig("tsconfig.readme.json", files, { types: ["node"], skipLibCheck: true, jsx: "react-jsx" });
    expect(await typeCheck("tsconfig.readme.json")).toBe("");
  });

  describe("keeps its types in every common project setting", () => {
    // What a React app with TanStack Query and a Standard Schema form library reads from the package.
    // Each line fails to compile when the data it reads turns unknown or any (the @ts-expect-error
    // lines then have no error to expect), in strict and in loose projects alike.
    const MATRIX_CONSUMER = `import { createDeploymentsClient } from "deployment-management-api";
import { createQueries } from "deployment-management-api/query";
import { Deployment as DeploymentSchema } from "deployment-management-api/schemas";
import { QueryClient, useQuery } from "@tanstack/react-query";

const client = createDeploymentsClient({ baseUrl: "http://127.0.0.1:4011", apiKey: "dev" });
const q = createQueries(client);

export async function read(): Promise<string[]> {
  const { data } = await client.GET("/v2/deployments", { params: { query: { limit: 2 } } });
  if (!data) return [];
  const names: string[] = data.resources.map((d) => d.name);
  // @ts-expect-error a deployment's name is a string
  const wrong: number = data.resources[0].name;
  const fetched = await new QueryClient().fetchQuery(q.listDeployments({ params: { query: { limit: 2 } } }));
  const offset: number = fetched.offset;
  // @ts-expect-error offset is a number
  const wrongOffset: string = fetched.offset;
  const checked = DeploymentSchema["~standard"].validate({});
  if (!(checked instanceof Promise) && !checked.issues && checked.value) names.push(checked.value.name);
  // @ts-expect-error a validated deployment's name is a string
  if (!(checked instanceof Promise) && !checked.issues && checked.value) names.push(checked.value.created_at.getTime());
  return [...names, String(offset), String(wrong), wrongOffset];
}

export function useFirstName(): string | undefined {
  const { data } = useQuery(q.listDeployments({ params: { query: { limit: 2 } } }));
  if (!data) return undefined;
  // @ts-expect-error the list's items are deployments
  const wrong: number = data.resources[0].name;
  return data.resources[0].name + String(wrong);
}
`;
    const compilers = [["TypeScript 5.9", TSC], ...(existsSync(TSC7) ? [["TypeScript 7", TSC7]] : [])] as const;
    const settings = [
      { name: "strict, NodeNext", module: "NodeNext", moduleResolution: "NodeNext", strict: true },
      { name: "loose (strict: false), NodeNext", module: "NodeNext", moduleResolution: "NodeNext", strict: false },
      { name: "strict, bundler", module: "ESNext", moduleResolution: "Bundler", strict: true },
      { name: "loose (strict: false), bundler", module: "ESNext", moduleResolution: "Bundler", strict: false },
    ];

    beforeAll(async () => {
      // The optional peers a React consumer installs, from this repository's own node_modules.
      for (const name of ["@tanstack/query-core", "@tanstack/react-query", "react", "@types/react"]) {
        const target = join(consumer, "node_modules", name);
        if (existsSync(target)) continue;
        await mkdir(join(target, ".."), { recursive: true });
        await symlink(join(ROOT, "node_modules", name), target, "dir");
      }
      await writeFile(join(consumer, "matrix.ts"), MATRIX_CONSUMER);
    });

    for (const [compiler, tsc] of compilers) {
      for (const setting of settings) {
        it(`${compiler}, ${setting.name}`, async () => {
          const { name, ...options } = setting;
          const file = `tsconfig.matrix-${compiler.replace(/\W/g, "")}-${name.replace(/\W+/g, "-")}.json`;
          await writeConsumerTsconfig(file, ["matrix.ts"], { ...options, types: [], skipLibCheck: true, jsx: "react-jsx" });
          expect(await typeCheck(file, tsc)).toBe("");
        });
      }
    }
  });

  describe("every entry with exactOptionalPropertyTypes and skipLibCheck false", () => {
    // Options read from the environment are `string | undefined`: every optional option takes
    // undefined (which keeps the default), so such a project compiles without `?? undefined` tricks.
    // Every entry's .d.ts is checked too (skipLibCheck false), with its optional peers installed.
    const EXACT_CONSUMER = `import { createDeploymentsClient, deployRevision, paginate, rollbackDeployment, waitForRevision } from "deployment-management-api";
import { createQueries } from "deployment-management-api/query";
import type * as schemas from "deployment-management-api/schemas";
import type * as simulator from "deployment-management-api/simulator";
import type * as msw from "deployment-management-api/msw";
import type * as vite from "deployment-management-api/vite";
import type * as mcp from "deployment-management-api/mcp";
import type { paths } from "deployment-management-api/schema";
import { REVISION_STATUSES } from "deployment-management-api/constants";

declare const env: Record<string, string | undefined>;
const numberOf = (name: string): number | undefined => (env[name] === undefined ? undefined : Number(env[name]));
const signal: AbortSignal | undefined = env.NO_SIGNAL ? undefined : AbortSignal.timeout(1000);
const client = createDeploymentsClient({
  baseUrl: env.DMS_BASE_URL ?? "http://127.0.0.1:4011",
  apiKey: env.DMS_API_KEY,
  tenantId: env.DMS_TENANT_ID,
  headers: undefined,
  fetch: undefined,
  timeoutMs: numberOf("DMS_TIMEOUT_MS"),
  maxResponseBytes: numberOf("DMS_MAX_RESPONSE_BYTES"),
  retry: { retries: numberOf("DMS_RETRIES"), minDelayMs: undefined, maxDelayMs: undefined },
});

export async function run(toRevisionId: string | undefined) {
  const wait = { timeoutMs: numberOf("T"), intervalMs: numberOf("I"), signal, onStatus: undefined, throwOnFailure: undefined };
  for await (const d of paginate(client, "/v2/deployments", { query: undefined, signal })) console.log(d.name);
  await waitForRevision(client, "d", "r", wait);
  await deployRevision(client, "d", { source_revision_config: { repo_ref: "main" } }, wait);
  await rollbackDeployment(client, "d", { ...wait, toRevisionId });
  const q = createQueries(client, { queryClient: undefined });
  const polled = q.getRevision({ params: { path: { deployment_id: "d", revision_id: "r" } } }, { pollUntilTerminal: { intervalMs: numberOf("P") } });
  type Everything = [typeof schemas.Deployment, simulator.Simulator, msw.SimulatorHandlerOptions, vite.SimulatorPluginOptions, mcp.McpServerOptions, simulator.SimulatorOptions, keyof paths];
  return [polled, REVISION_STATUSES, undefined as Everything | undefined] as const;
}
`;
    const settings = [
      { name: "NodeNext", module: "NodeNext", moduleResolution: "NodeNext" },
      { name: "bundler", module: "ESNext", moduleResolution: "Bundler" },
    ];
    beforeAll(async () => {
      for (const name of ["@tanstack/query-core", "msw", "vite", "@modelcontextprotocol/sdk", "@types/node"]) {
        const target = join(consumer, "node_modules", name);
        if (existsSync(target)) continue;
        await mkdir(join(target, ".."), { recursive: true });
        await symlink(join(ROOT, "node_modules", name), target, "dir");
      }
      await writeFile(join(consumer, "exact.ts"), EXACT_CONSUMER);
    });
    for (const setting of settings) {
      it(`strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess, ${setting.name}`, async () => {
        const { name, ...options } = setting;
        const file = `tsconfig.exact-${name}.json`;
        const exact = { strict: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, skipLibCheck: false, types: ["node"] };
        await writeConsumerTsconfig(file, ["exact.ts"], { ...options, ...exact });
        expect(await typeCheck(file)).toBe("");
      });
    }
  });

  describe("from CommonJS", () => {
    // A CommonJS package (`"type": "commonjs"`) beside the consumer: Node 22.12 and later require()
    // the package's ES modules, and TypeScript allows it with "module": "nodenext".
    const cjs = () => join(consumer, "cjs");
    beforeAll(async () => {
      await mkdir(cjs(), { recursive: true });
      await writeFile(join(cjs(), "package.json"), JSON.stringify({ name: "cjs-consumer", private: true, type: "commonjs" }));
    });

    it("require() loads every entry a program can load; the types-only and YAML entries say what they are", async () => {
      const entries = ["", "/simulator", "/query", "/schemas", "/constants", "/openapi.json", "/package.json", "/schema", "/openapi.yaml"];
      const script = `const out = {};
for (const entry of ${JSON.stringify(entries)}) {
  const name = "deployment-management-api" + entry;
  try { out[entry || "."] = Object.keys(require(name)).length > 0 ? "ok" : "empty"; }
  catch (error) { out[entry || "."] = error.code || error.message.split("\\n")[0]; }
}
out.resolveYaml = require.resolve("deployment-management-api/openapi.yaml").endsWith("generated/openapi.yaml");
const { createDeploymentsClient } = require("deployment-management-api");
out.client = typeof createDeploymentsClient({ baseUrl: "http://127.0.0.1:4011" }).GET;
console.log(JSON.stringify(out));
`;
      await writeFile(join(cjs(), "require.js"), script);
      const { stdout } = await run(process.execPath, ["require.js"], { cwd: cjs() });
      const out = JSON.parse(stdout);
      for (const entry of [".", "/simulator", "/query", "/schemas", "/constants", "/openapi.json", "/package.json"]) expect(out[entry], entry).toBe("ok");
      // `/schema` is types only: Node says the subpath is not exported for it; YAML is data, resolved and read as a file.
      expect(out["/schema"]).toBe("ERR_PACKAGE_PATH_NOT_EXPORTED");
      expect(out.resolveYaml).toBe(true);
      expect(out.client).toBe("function");
    });

    it('type-checks a CommonJS TypeScript consumer with "module": "nodenext"', async () => {
      await writeFile(
        join(cjs(), "consumer.ts"),
        `import { createDeploymentsClient, unwrap } from "deployment-management-api";
import { createQueries } from "deployment-management-api/query";
import { Deployment } from "deployment-management-api/schemas";
import type { paths } from "deployment-management-api/schema";
const client = createDeploymentsClient({ baseUrl: "http://127.0.0.1:4011", apiKey: "k" });
export const all = [unwrap, createQueries(client), Deployment] as const;
export type Path = keyof paths;
`,
      );
      await writeConsumerTsconfig("tsconfig.cjs.json", ["cjs/consumer.ts"], { types: [], skipLibCheck: false });
      expect(await typeCheck("tsconfig.cjs.json")).toBe("");
    });
  });

  describe("runs a JavaScript consumer", () => {
    let server: LocalServer;
    beforeAll(async () => {
      server = await startLocalServer((req, res) => {
        if (req.url.pathname === "/v2/deployments") sendJson(res, 200, { resources: [{ id: "d1", name: "one" }], offset: 1 });
        else sendJson(res, 404, { title: "Not Found", detail: "no such deployment" });
      });
    });
    afterAll(() => server?.close());

    it("imports the client and the constants from the installed package and calls a server", async () => {
      const script = `import { createDeploymentsClient, paginate, unwrap, ApiError, REVISION_STATUSES, TERMINAL_REVISION_STATUSES } from "deployment-management-api";
const client = createDeploymentsClient({ baseUrl: process.argv[2], apiKey: "consumer-key", tenantId: "t1" });
const names = [];
for await (const d of paginate(client, "/v2/deployments", { query: { tag_value_ids: ["a", "b"] } })) names.push(d.name);
let status;
try { unwrap(await client.GET("/v2/deployments/{deployment_id}", { params: { path: { deployment_id: "nope" } } })); }
catch (error) { status = error instanceof ApiError ? error.status : String(error); }
console.log(JSON.stringify({ names, status, revisionStatuses: REVISION_STATUSES.length, terminal: TERMINAL_REVISION_STATUSES }));
`;
      await writeFile(join(consumer, "consumer.mjs"), script);
      const { stdout } = await run(process.execPath, ["consumer.mjs", server.baseUrl], { cwd: consumer });
      expect(JSON.parse(stdout)).toEqual({
        names: ["one"],
        status: 404,
        revisionStatuses: 13,
        terminal: ["DEPLOYED", "CREATE_FAILED", "BUILD_FAILED", "DEPLOY_FAILED", "SKIPPED", "INTERRUPTED"],
      });
      expect(server.requests[0]?.headers["x-api-key"]).toBe("consumer-key");
      expect(server.requests[0]?.url.searchParams.get("tag_value_ids")).toBe("a,b");
      // The package was unpacked from the tarball, not linked to this repository.
      expect((await lstat(join(consumer, "node_modules/deployment-management-api"))).isSymbolicLink()).toBe(false);
    });
  });

  describe("runs in a browser", () => {
    let server: LocalServer;
    // One origin serves the installed packages as static files and answers the API, so no CORS is involved.
    const staticFiles: Record<string, string> = {
      "/pkg/": "node_modules/deployment-management-api/",
      "/openapi-fetch/": "node_modules/openapi-fetch/",
    };
    beforeAll(async () => {
      server = await startLocalServer(async (req, res) => {
        const prefix = Object.keys(staticFiles).find((p) => req.url.pathname.startsWith(p));
        if (prefix) {
          const file = join(consumer, staticFiles[prefix]!, req.url.pathname.slice(prefix.length));
          const text = await readFile(file, "utf8").catch(() => undefined);
          res.writeHead(text === undefined ? 404 : 200, { "Content-Type": "text/javascript" });
          return void res.end(text ?? "");
        }
        if (req.url.pathname === "/") {
          res.writeHead(200, { "Content-Type": "text/html" });
          return void res.end(`<!doctype html><script type="importmap">{"imports":{"openapi-fetch":"/openapi-fetch/dist/index.mjs"}}</script>`);
        }
        if (req.url.pathname === "/v2/deployments") {
          const offset = Number(req.url.searchParams.get("offset"));
          const resources =
            offset < 4
              ? [
                  { id: `d${offset}`, name: "a" },
                  { id: `d${offset + 1}`, name: "b" },
                ]
              : [{ id: "last", name: "c" }];
          return sendJson(res, 200, { resources, offset: offset + resources.length });
        }
        sendJson(res, 404, { title: "Not Found", detail: "no such deployment" });
      });
    });
    afterAll(() => server?.close());

    it.runIf(chromiumAvailable())("the installed client runs in Chromium: headers, comma-separated arrays, paging, ApiError", async () => {
      const browser = await launchChromium();
      try {
        const page = await browser.newPage();
        const pageErrors: string[] = [];
        page.on("pageerror", (error) => pageErrors.push(String(error)));
        await page.goto(`${server.baseUrl}/`);
        // Sent as source text: vitest would rewrite a dynamic import() inside a function it compiled.
        const result = await page.evaluate(`(async () => {
          const api = await import("/pkg/dist/index.js");
          const client = api.createDeploymentsClient({ baseUrl: location.origin, apiKey: "browser-key", tenantId: "t" });
          const ids = [];
          for await (const d of api.paginate(client, "/v2/deployments", { query: { limit: 2, tag_value_ids: ["x", "y"] } })) ids.push(d.id);
          let error;
          try {
            api.unwrap(await client.GET("/v2/deployments/{deployment_id}", { params: { path: { deployment_id: "nope" } } }));
          } catch (e) {
            error = { name: e.name, status: e.status, path: e.path };
          }
          return { ids, error, terminal: api.TERMINAL_REVISION_STATUSES.length };
        })()`);
        expect(pageErrors).toEqual([]);
        expect(result).toEqual({
          ids: ["d0", "d1", "d2", "d3", "last"],
          error: { name: "ApiError", status: 404, path: "/v2/deployments/nope" },
          terminal: 6,
        });
        const apiRequests = server.requests.filter((r) => r.url.pathname.startsWith("/v2/"));
        expect(apiRequests).toHaveLength(4);
        for (const r of apiRequests) expect(r.headers["x-api-key"]).toBe("browser-key");
        expect(apiRequests[0]?.url.searchParams.get("tag_value_ids")).toBe("x,y");
      } finally {
        await browser.close();
      }
    });
  });
});
