// The simulator in a browser page, as a consumer ships it: take the tarball test/global-setup.ts packed (of
// the dist/ it compiled), install it into a temporary project, bundle a page
// script that imports "deployment-management-api/simulator" and "deployment-management-api" with
// esbuild for the browser, serve it with `Content-Security-Policy: script-src 'self'` (no
// 'unsafe-eval', no 'unsafe-inline') and run a patch-then-deploy flow in Chromium with no API
// server behind it: the client's fetch is the simulator's. Then the same flow through MSW's
// service worker (msw/browser, with the package's simulatorHandlers), as Storybook runs it.
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import type { BuildFailure, Message } from "esbuild";
import { browserBundle } from "../../support/browser-bundle.js";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable, CHROMIUM_PATH, launchChromium } from "../../support/docs-browser.js";
import { ROOT } from "../../support/document.js";
import { packedTarball } from "../../support/packed.js";
import { npm, run } from "../../support/run.js";

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

// The flow with the client on the global fetch, answered by MSW's service worker from the simulator.
const MSW_APP = `import { setupWorker } from "msw/browser";
import { simulatorHandlers } from "deployment-management-api/msw";
import { createSimulator, SEED_IDS } from "deployment-management-api/simulator";
import { createDeploymentsClient, unwrap } from "deployment-management-api";

async function main() {
  const sim = createSimulator();
  const worker = setupWorker(...simulatorHandlers(sim, { baseUrl: "https://api.example.test" }));
  await worker.start({ quiet: true, onUnhandledRequest: "error", serviceWorker: { url: "/mockServiceWorker.js" } });
  const client = createDeploymentsClient({ baseUrl: "https://api.example.test", apiKey: "storybook" });
  const deployment_id = SEED_IDS.deployment_id;
  const patched = unwrap(await client.PATCH("/v2/deployments/{deployment_id}", {
    params: { path: { deployment_id } },
    body: { source_revision_config: { repo_ref: "through-the-worker" } },
  }));
  await sim.advance(60);
  const path = { deployment_id, revision_id: patched.latest_revision_id };
  const revision = unwrap(await client.GET("/v2/deployments/{deployment_id}/revisions/{revision_id}", { params: { path } }));
  const missing = await client.GET("/v2/deployments/{deployment_id}", { params: { path: { deployment_id: "00000000-0000-4000-8000-000000000000" } } });
  return { status: revision.status, repo_ref: revision.source_revision_config.repo_ref, missing: missing.response.status, controlled: Boolean(navigator.serviceWorker.controller) };
}

const out = document.getElementById("result");
main().then(
  (result) => { out.textContent = JSON.stringify({ ok: true, result }); },
  (error) => { out.textContent = JSON.stringify({ ok: false, error: String(error && error.stack || error) }); },
);
`;

const page = (script: string) => `<!doctype html><meta charset="utf-8"><title>simulator</title><pre id="result"></pre><script src="/${script}"></script>`;

let work: string;
let consumer: string;
let server: Server;
let origin: string;
const files = new Map<string, { type: string; body: string }>();
let bundleError: string | undefined;
let mswBundleError: string | undefined;
// The msw the repository tests with (its dev dependency), from the npm cache.
const MSW_VERSION = JSON.parse(readFileSync(join(ROOT, "node_modules/msw/package.json"), "utf8")).version as string;

/** Bundles a script of the consumer project for the browser; esbuild's messages as text when it fails. */
async function bundle(entry: string): Promise<{ code: string } | { errors: string }> {
  try {
    const result = await browserBundle({ entry: join(consumer, entry), absWorkingDir: consumer }, { format: "iife", minify: true });
    return { code: result.text };
  } catch (error) {
    const messages: Message[] = (error as BuildFailure).errors ?? [];
    return { errors: messages.map((m) => `${m.location?.file ?? ""}:${m.location?.line ?? ""} ${m.text}`).join("\n") || String(error) };
  }
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "dms-browser-"));
  consumer = join(work, "consumer");
  await mkdir(consumer);
  await writeFile(join(consumer, "package.json"), JSON.stringify({ name: "browser-consumer", private: true, type: "module" }));
  // msw is an optional peer dependency: a project that uses the msw entry installs it itself. One
  // install for both, since an install with --no-save removes what an earlier one added.
  const install = ["install", "--no-audit", "--no-fund", "--no-save", packedTarball(), `msw@${MSW_VERSION}`];
  await run(npm, [...install, "--offline"], { cwd: consumer }).catch(() => run(npm, [...install, "--prefer-offline"], { cwd: consumer }));

  await writeFile(join(consumer, "app.js"), APP);
  await writeFile(join(consumer, "msw-app.js"), MSW_APP);
  await writeFile(join(consumer, "eval-probe.js"), EVAL_PROBE);
  const app = await bundle("app.js");
  if ("errors" in app) bundleError = app.errors;
  else files.set("/app.js", { type: "text/javascript", body: app.code });
  const mswApp = await bundle("msw-app.js");
  if ("errors" in mswApp) mswBundleError = mswApp.errors;
  else files.set("/msw-app.js", { type: "text/javascript", body: mswApp.code });
  files.set("/mockServiceWorker.js", { type: "text/javascript", body: await readFile(join(consumer, "node_modules/msw/lib/mockServiceWorker.js"), "utf8") });
  files.set("/msw.html", { type: "text/html", body: page("msw-app.js") });
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
  async function open(
    path: string,
    serviceWorkers: "allow" | "block" = "block",
  ): Promise<{ page: Page; refused: string[]; errors: string[]; result: () => Promise<string> }> {
    const context = await browser.newContext({ serviceWorkers });
    const page = await context.newPage();
    const refused: string[] = [];
    const errors: string[] = [];
    await page.exposeFunction("__reportPolicyViolation", (violation: string) => refused.push(violation));
    // Added by the browser itself, before any script of the page: the policy does not apply to it.
    await page.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (event) => {
        // @ts-expect-error: exposed above
        window.__reportPolicyViolation(`${event.violatedDirective} refused ${event.blockedURI}`);
      });
    });
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(`${message.text()} (${message.location().url})`);
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

  it("through MSW's service worker (msw/browser + simulatorHandlers): the client on the global fetch deploys, with no policy violation", async () => {
    expect(mswBundleError, `the msw page script did not bundle:\n${mswBundleError}`).toBeUndefined();
    const { refused, errors, result } = await open("/msw.html", "allow");
    const outcome = JSON.parse(await result());
    expect(refused).toEqual([]);
    // The browser logs the 404 the flow asks for; nothing else.
    expect(errors).toEqual([expect.stringMatching(/status of 404 .*\(https:\/\/api\.example\.test\/v2\/deployments\/00000000-0000-4000-8000-000000000000\)$/)]);
    expect(outcome).toEqual({ ok: true, result: { status: "DEPLOYED", repo_ref: "through-the-worker", missing: 404, controlled: true } });
  });
});
