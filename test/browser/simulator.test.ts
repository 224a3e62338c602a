// The simulator in a browser page, as a consumer ships it: `npm pack` (of the dist/ that
// test/global-setup.ts compiled), install the tarball into a temporary project, bundle a page
// script that imports "deployment-management-api/simulator" and "deployment-management-api" with
// esbuild for the browser, serve it with `Content-Security-Policy: script-src 'self'` (no
// 'unsafe-eval', no 'unsafe-inline') and run a patch-then-deploy flow in Chromium with no API
// server behind it: the client's fetch is the simulator's.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { build, type BuildFailure, type Message } from "esbuild";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable, CHROMIUM_PATH, launchChromium } from "../../scripts/docs-browser.mjs";
import { ROOT } from "../support/document.js";

const run = promisify(execFile);
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const POLICY = "script-src 'self'";

// The page's script: the flow a frontend developer runs, its outcome written into the page.
const APP = `import { createSimulator, SEED_IDS } from "deployment-management-api/simulator";
import { createDeploymentsClient, unwrap } from "deployment-management-api";

async function main() {
  const sim = createSimulator({ stepSeconds: 2 });
  const client = createDeploymentsClient({ baseUrl: "https://api.example.test", apiKey: "browser", fetch: sim.fetch });
  const deployment_id = SEED_IDS.deployment_id;
  const patched = unwrap(await client.PATCH("/v2/deployments/{deployment_id}", {
    params: { path: { deployment_id } },
    body: { source_revision_config: { repo_ref: "release-from-the-browser" } },
  }));
  const revision_id = patched.latest_revision_id;
  const path = { deployment_id, revision_id };
  const before = unwrap(await client.GET("/v2/deployments/{deployment_id}/revisions/{revision_id}", { params: { path } }));
  await sim.advance(60);
  const after = unwrap(await client.GET("/v2/deployments/{deployment_id}/revisions/{revision_id}", { params: { path } }));
  const deployment = unwrap(await client.GET("/v2/deployments/{deployment_id}", { params: { path: { deployment_id } } }));
  const invalid = await client.PATCH("/v2/deployments/{deployment_id}", { params: { path: { deployment_id } }, body: { source_revision_config: { repo_ref: 42 } } });
  return {
    before: before.status,
    after: after.status,
    repo_ref: after.source_revision_config && after.source_revision_config.repo_ref,
    active_is_new: deployment.active_revision_id === revision_id,
    invalid: { status: invalid.response.status, type: invalid.response.headers.get("content-type"), errors: invalid.error && invalid.error.errors },
  };
}

const out = document.getElementById("result");
main().then(
  (result) => { out.textContent = JSON.stringify({ ok: true, result }); },
  (error) => { out.textContent = JSON.stringify({ ok: false, error: String(error && error.stack || error) }); },
);
`;

// A script that makes a function from text: the policy must refuse it, and this test must see that.
const EVAL_PROBE = `const out = document.getElementById("result");
try { out.textContent = String(new Function("return 'evaluated'")()); } catch (error) { out.textContent = "refused: " + error.name; }
`;

const page = (script: string) => `<!doctype html><meta charset="utf-8"><title>simulator</title><pre id="result"></pre><script src="/${script}"></script>`;

let work: string;
let consumer: string;
let server: Server;
let origin: string;
const files = new Map<string, { type: string; body: string }>();
let bundleError: string | undefined;

/** Bundles a script of the consumer project for the browser; esbuild's messages as text when it fails. */
async function bundle(entry: string): Promise<{ code: string } | { errors: string }> {
  try {
    const result = await build({
      entryPoints: [join(consumer, entry)],
      absWorkingDir: consumer,
      bundle: true,
      write: false,
      platform: "browser",
      format: "iife",
      target: "es2022",
      minify: true,
      logLevel: "silent",
    });
    return { code: result.outputFiles[0]!.text };
  } catch (error) {
    const messages: Message[] = (error as BuildFailure).errors ?? [];
    return { errors: messages.map((m) => `${m.location?.file ?? ""}:${m.location?.line ?? ""} ${m.text}`).join("\n") || String(error) };
  }
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "dms-browser-"));
  const { stdout } = await run(npm, ["pack", "--json", "--ignore-scripts", "--pack-destination", work], { cwd: ROOT, maxBuffer: 1 << 24 });
  const [packed] = JSON.parse(stdout.slice(stdout.indexOf("[\n"))) as { filename: string }[];
  consumer = join(work, "consumer");
  await mkdir(consumer);
  await writeFile(join(consumer, "package.json"), JSON.stringify({ name: "browser-consumer", private: true, type: "module" }));
  const install = ["install", "--no-audit", "--no-fund", "--no-save", join(work, packed!.filename)];
  await run(npm, [...install, "--offline"], { cwd: consumer }).catch(() => run(npm, [...install, "--prefer-offline"], { cwd: consumer }));

  await writeFile(join(consumer, "app.js"), APP);
  await writeFile(join(consumer, "eval-probe.js"), EVAL_PROBE);
  const app = await bundle("app.js");
  if ("errors" in app) bundleError = app.errors;
  else files.set("/app.js", { type: "text/javascript", body: app.code });
  files.set("/eval-probe.js", { type: "text/javascript", body: EVAL_PROBE });
  files.set("/", { type: "text/html", body: page("app.js") });
  files.set("/eval-probe.html", { type: "text/html", body: page("eval-probe.js") });

  server = createServer((req, res) => {
    const file = files.get(new URL(req.url ?? "/", "http://localhost").pathname);
    res.writeHead(file ? 200 : 404, { "Content-Type": file?.type ?? "text/plain", "Content-Security-Policy": POLICY });
    res.end(file?.body ?? "not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 180_000);

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  if (work) await rm(work, { recursive: true, force: true });
});

describe("the packed simulator bundled for a browser", () => {
  it("bundles with esbuild (platform browser): no node: module and nothing else unresolved", () => {
    expect(bundleError, `esbuild could not bundle the page script:\n${bundleError}`).toBeUndefined();
    const code = files.get("/app.js")!.body;
    console.info(`page bundle (client + simulator, minified): ${code.length} bytes, ${gzipSync(code).length} gzipped`);
  });
});

if (!chromiumAvailable()) {
  console.warn(`browser simulator test skipped: no chromium at ${CHROMIUM_PATH} (apt-get install chromium, as .ci/run does, or set CHROMIUM_PATH)`);
}

describe.skipIf(!chromiumAvailable())(`in chromium (${CHROMIUM_PATH}) under "${POLICY}"`, () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** Opens a page of the server and records what its policy refused and what it logged as errors. */
  async function open(path: string): Promise<{ page: Page; refused: string[]; errors: string[]; result: () => Promise<string> }> {
    const context = await browser.newContext({ serviceWorkers: "block" });
    const page = await context.newPage();
    const refused: string[] = [];
    const errors: string[] = [];
    await page.exposeFunction("__reportPolicyViolation", (violation: string) => refused.push(violation));
    // Added by the browser itself, before any script of the page: the policy does not apply to it.
    await page.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (event) => {
        // @ts-ignore: exposed above
        window.__reportPolicyViolation(`${event.violatedDirective} refused ${event.blockedURI}`);
      });
    });
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(`${origin}${path}`);
    const result = async () => {
      const out = page.locator("#result");
      await out.filter({ hasText: /./ }).waitFor({ timeout: 20_000 });
      return (await out.textContent()) ?? "";
    };
    return { page, refused, errors, result };
  }

  it("the policy is in force: a script that makes a function from text is refused, and the test sees it", async () => {
    const { refused, result } = await open("/eval-probe.html");
    expect(await result()).toBe("refused: EvalError");
    expect(refused).toEqual([expect.stringMatching(/^script-src.* refused eval$/)]);
  });

  it("patch, advance 60 s, get: the new revision is DEPLOYED, with no server and no policy violation", async () => {
    expect(bundleError, "the page script did not bundle").toBeUndefined();
    const { refused, errors, result } = await open("/");
    const outcome = JSON.parse(await result());
    expect(refused).toEqual([]);
    expect(errors).toEqual([]);
    expect(outcome).toEqual({
      ok: true,
      result: {
        before: "CREATING",
        after: "DEPLOYED",
        repo_ref: "release-from-the-browser",
        active_is_new: true,
        invalid: {
          status: 422,
          type: expect.stringMatching(/^application\/problem\+json/),
          errors: [expect.objectContaining({ pointer: "/source_revision_config/repo_ref" })],
        },
      },
    });
  });
});
