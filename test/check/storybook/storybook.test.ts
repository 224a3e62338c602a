// The Storybook recipe built for real: `storybook build` (Storybook 10 with @storybook/react-vite and
// msw-storybook-addon 3's CSF 3 loader) of test/check/storybook/, then its stories opened in Chromium from
// the static output: each shows what the simulator answers through MSW's service worker.
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { mkdtemp, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { extname, join, normalize } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM_PATH, chromiumAvailable, launchChromium } from "../../support/docs-browser.js";
import { ROOT } from "../../support/document.js";
import { run } from "../../support/run.js";
import { typeCheck } from "../../support/tsc.js";

const STORYBOOK = join(ROOT, "node_modules/storybook/dist/bin/dispatcher.js");
const TYPES: Record<string, string> = {
  ".html": "text/html",
  ".js": "text/javascript",
  ".json": "application/json",
  ".css": "text/css",
  ".svg": "image/svg+xml",
};

let out: string;
let server: Server | undefined;
let origin: string;
let buildSeconds: number;

let typeChecked: Promise<string>;

beforeAll(async () => {
  // tsc runs while Storybook builds: the build waits on the disk as much as on the CPU.
  typeChecked = typeCheck("test/check/storybook/tsconfig.json", { args: ["--noEmit"] });
  out = await mkdtemp(join(tmpdir(), "dms-storybook-"));
  const started = performance.now();
  await run(process.execPath, [STORYBOOK, "build", "-c", "test/check/storybook/.storybook", "-o", out, "--quiet", "--disable-telemetry"], {
    cwd: ROOT,
    env: { ...process.env, STORYBOOK_DISABLE_TELEMETRY: "1", CI: "1" },
    maxBuffer: 1 << 24,
  });
  buildSeconds = (performance.now() - started) / 1000;
  console.info(`storybook build: ${buildSeconds.toFixed(1)} s`);
  // The static output as a host serves it (service workers need http://, not file://).
  server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname)).replace(/^(\.\.[/\\])+/, "");
    try {
      const body = await readFile(join(out, path.endsWith("/") ? `${path}index.html` : path));
      res.writeHead(200, { "content-type": TYPES[extname(path)] ?? "application/octet-stream" }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 180_000);

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  if (out) await rm(out, { recursive: true, force: true });
});

describe("storybook build of the recipe", () => {
  it("type-checks: the stories, preview.ts and main.ts (test/check/storybook/tsconfig.json)", async () => {
    expect(await typeChecked).toBe("");
  });

  it("lists the five stories and ships MSW's worker script", async () => {
    const index = JSON.parse(await readFile(join(out, "index.json"), "utf8")) as { entries: Record<string, { title: string; name: string }> };
    expect(Object.keys(index.entries).sort()).toEqual([
      "deployments-card--deployed",
      "deployments-card--deploying",
      "deployments-card--loading",
      "deployments-card--not-found",
      "deployments-card--unavailable",
    ]);
    expect(await readFile(join(out, "mockServiceWorker.js"), "utf8")).toContain("INTEGRITY_CHECKSUM");
  });
});

if (!chromiumAvailable()) console.warn(`storybook story test skipped: no chromium at ${CHROMIUM_PATH} (apt-get install chromium, or set CHROMIUM_PATH)`);

describe.skipIf(!chromiumAvailable())("the built stories in Chromium", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  // One page for every story: MSW's worker registers once, as it does for a reader of the Storybook.
  let context: BrowserContext;
  let page: Page;
  const errors: string[] = [];
  const outside: string[] = [];
  beforeAll(async () => {
    context = await browser.newContext({ serviceWorkers: "allow" });
    page = await context.newPage();
    page.on("pageerror", (error) => {
      // MSW 2 (get-worker-instance) starts `registration.update()` on every story load and does not
      // wait for it; when the test moves to the next story before that check ends, Chromium rejects
      // it with "Not found" (the registration's client is gone), as an unhandled rejection of MSW's
      // own. The stories' content is checked above; every other page error fails the test.
      if (/^Failed to update a ServiceWorker for scope \(.*\) with script \(.*\/mockServiceWorker\.js'\): Not found$/.test(error.message)) return;
      errors.push(error.message);
    });
    // The simulator's base URL never reaches the network: the worker answers it.
    await context.route("https://api.example.test/**", (route) => {
      outside.push(route.request().url());
      return route.abort();
    });
  });
  afterAll(async () => {
    await context?.close();
  });

  async function story(id: string, selector: string): Promise<string> {
    await page.goto(`${origin}/iframe.html?id=${id}&viewMode=story`);
    const element = page.locator(selector);
    await element.waitFor({ timeout: 30_000 });
    return (await element.textContent()) ?? "";
  }

  it("Deployed shows the seeded deployment with its DEPLOYED revision, from the simulator", async () => {
    const text = await story("deployments-card--deployed", "#storybook-root section");
    expect(text).toContain("DEPLOYED");
    expect(text).toMatch(/Revision [0-9a-f-]{36}/);
  });

  it("Deploying opens on the revision its loader created", async () => {
    expect(await story("deployments-card--deploying", "#storybook-root section strong")).toBe("CREATING");
  });

  it("Loading stays on the loading state (a minute of latency), Unavailable and NotFound show the error state", async () => {
    expect(await story("deployments-card--loading", "#storybook-root [role=status]")).toBe("Loading…");
    await page.waitForTimeout(1000);
    expect(await page.locator("#storybook-root [role=status]").textContent()).toBe("Loading…");
    expect(await story("deployments-card--unavailable", "#storybook-root [role=alert]")).toMatch(/503/);
    expect(await story("deployments-card--not-found", "#storybook-root [role=alert]")).toMatch(/404/);
    // The story after Loading answers at once: its loader reset the latency.
    expect(await story("deployments-card--deployed", "#storybook-root section strong")).toBe("DEPLOYED");
  });

  it("no page error, and nothing sent to the network", () => {
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
  });
});
