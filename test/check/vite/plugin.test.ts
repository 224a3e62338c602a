// "deployment-management-api/vite" as a consumer uses it: the tarball test/global-setup.ts packed (of
// the dist/ it compiled), installed in a temporary Vite app whose vite.config.ts
// imports simulatorPlugin, served by Vite's own dev server (createServer, port 0). Requests under the
// prefix reach the simulator; everything else stays Vite's; the state a page built up survives a
// server restart (what editing vite.config does) and a second copy of the plugin module; the app's
// page, in Chromium, shows what the simulator answers, same-origin, with no second port.
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser } from "playwright-core";
import { createServer, type PluginOption, preview, type ServerOptions, type ViteDevServer } from "vite";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { CHROMIUM_PATH, chromiumAvailable, launchChromium } from "../../support/docs-browser.js";
import type { SimulatorPlugin, simulatorPlugin as SimulatorPluginFn } from "../../../src/vite/index.js";
import { SEED_IDS } from "../../../src/simulator/core/seed.js";
import { ROOT } from "../../support/document.js";
import { packedTarball } from "../../support/packed.js";
import { sendRaw } from "../../support/raw-http.js";
import { upload } from "../../support/upload.js";
import { INDEX_HTML, MAIN_TS, VITE_CONFIG } from "../../vite/app-files.js";
import { npm, run } from "../../support/run.js";

const DEPLOYMENT_ID = SEED_IDS.deployment_id;

let work: string;
let app: string;
let pluginUrl: string;
let server: ViteDevServer;
let origin: string;

async function startVite(): Promise<ViteDevServer> {
  const vite = await createServer({
    root: app,
    configFile: join(app, "vite.config.ts"),
    logLevel: "silent",
    server: { host: "127.0.0.1", port: 0, strictPort: false, watch: null },
  });
  await vite.listen();
  return vite;
}

/** A dev server of the app with only these plugins (no config file), listening on a free port. */
async function startViteWith(plugins: PluginOption[], server: ServerOptions = {}): Promise<ViteDevServer> {
  const vite = await createServer({
    root: app,
    configFile: false,
    logLevel: "silent",
    plugins,
    server: { host: "127.0.0.1", port: 0, watch: null, ...server },
  });
  await vite.listen();
  return vite;
}

function originOf(vite: ViteDevServer): string {
  return vite.resolvedUrls!.local[0]!.replace(/\/$/, "");
}

function pluginOf(vite: ViteDevServer): SimulatorPlugin {
  return vite.config.plugins.find((p) => p.name === "deployment-management-api:simulator") as SimulatorPlugin;
}

async function json(url: string, init?: RequestInit): Promise<{ status: number; type: string | null; body: any }> {
  const response = await fetch(url, {
    ...init,
    headers: { "x-api-key": "dev", ...(init?.body ? { "content-type": "application/json" } : {}), ...init?.headers },
  });
  const text = await response.text();
  const type = response.headers.get("content-type");
  return { status: response.status, type, body: type?.includes("json") ? JSON.parse(text) : text };
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "dms-vite-"));
  app = join(work, "app");
  await mkdir(join(app, "src"), { recursive: true });
  await writeFile(join(app, "package.json"), JSON.stringify({ name: "vite-app", private: true, type: "module" }));
  const install = ["install", "--no-audit", "--no-fund", "--no-save", packedTarball()];
  await run(npm, [...install, "--offline"], { cwd: app }).catch(() => run(npm, [...install, "--prefer-offline"], { cwd: app }));
  await writeFile(join(app, "index.html"), INDEX_HTML);
  await writeFile(join(app, "src/main.ts"), MAIN_TS);
  await writeFile(join(app, "vite.config.ts"), VITE_CONFIG);
  // The app's own vite: the one this repository tests with, linked rather than installed again.
  await symlink(join(ROOT, "node_modules/vite"), join(app, "node_modules/vite"), "dir");
  pluginUrl = pathToFileURL(join(app, "node_modules/deployment-management-api/dist/vite/index.js")).href;
  server = await startVite();
  origin = originOf(server);
}, 120_000);

afterAll(async () => {
  if (server) {
    await pluginOf(server).api.close();
    await server.close();
  }
  // Vite may still be writing its dependency cache under the app as it closes: retry the removal.
  if (work) await rm(work, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
});

describe("simulatorPlugin in vite dev (the packed package)", () => {
  it("answers the API under /dms: GET, PATCH, the control API, problems", async () => {
    const list = await json(`${origin}/dms/v2/deployments?limit=2`);
    expect(list.status).toBe(200);
    expect(list.body.resources).toHaveLength(2);

    const before = await json(`${origin}/dms/v2/deployments/${DEPLOYMENT_ID}`);
    expect(before.status).toBe(200);
    const patched = await json(`${origin}/dms/v2/deployments/${DEPLOYMENT_ID}`, {
      method: "PATCH",
      body: JSON.stringify({ source_revision_config: { repo_ref: "feature/vite" } }),
    });
    expect(patched.status).toBe(200);
    expect(patched.body.latest_revision_id).not.toBe(before.body.latest_revision_id);

    const advanced = await json(`${origin}/dms/_simulator/advance`, { method: "POST", body: JSON.stringify({ seconds: 60 }) });
    expect(advanced.status).toBe(200);
    const revision = await json(`${origin}/dms/v2/deployments/${DEPLOYMENT_ID}/revisions/${patched.body.latest_revision_id}`);
    expect(revision.body).toMatchObject({ status: "DEPLOYED", source_revision_config: { repo_ref: "feature/vite" } });

    const bad = await json(`${origin}/dms/v2/deployments?limit=0`);
    expect(bad.status).toBe(422);
    expect(bad.type).toBe("application/problem+json");
    // defaultApiKey stands in for a missing key, never for a wrong one.
    expect((await fetch(`${origin}/dms/v2/deployments?limit=1`)).status).toBe(200);
    const { simulatorPlugin } = (await import(pluginUrl)) as { simulatorPlugin: typeof SimulatorPluginFn };
    const keyed = simulatorPlugin({ prefix: "/keyed", apiKeys: ["right"] });
    const vite = await startViteWith([keyed]);
    try {
      expect((await fetch(`${originOf(vite)}/keyed/v2/deployments`)).status).toBe(401);
      expect((await fetch(`${originOf(vite)}/keyed/v2/deployments`, { headers: { "x-api-key": "wrong" } })).status).toBe(401);
      expect((await fetch(`${originOf(vite)}/keyed/v2/deployments`, { headers: { "x-api-key": "right" } })).status).toBe(200);
    } finally {
      await vite.close();
      await keyed.api.close();
    }
  });

  it("leaves every request outside the prefix to Vite", async () => {
    const index = await json(`${origin}/`);
    expect(index.type).toContain("text/html");
    expect(index.body).toContain('<ul id="deployments">');
    // Not the simulator: Vite's SPA fallback answers these with the page.
    for (const path of ["/v2/deployments", "/dmsx/v2/deployments", "/api/dms/v2/deployments"]) {
      const other = await json(`${origin}${path}`);
      expect(other.type, path).toContain("text/html");
    }
    const script = await fetch(`${origin}/src/main.ts`);
    expect(await script.text()).toContain("createDeploymentsClient");
  });

  it("follows Vite's allowedHosts: a page on a listed name writes to its own server; allowedHosts: true takes any name", async () => {
    const { simulatorPlugin } = (await import(pluginUrl)) as { simulatorPlugin: typeof SimulatorPluginFn };
    for (const allowedHosts of [["app.test"], true] as const) {
      const plugin = simulatorPlugin({ prefix: "/named" });
      const vite = await startViteWith([plugin], { allowedHosts: allowedHosts === true ? true : [...allowedHosts] });
      try {
        const base = `${originOf(vite)}/named/v2/deployments/${DEPLOYMENT_ID}`;
        const port = new URL(base).port;
        const name = allowedHosts === true ? "tunnel.example" : "app.test";
        const patched = await sendRaw(base, {
          method: "PATCH",
          headers: { host: `${name}:${port}`, origin: `http://${name}:${port}`, "x-api-key": "dev", "content-type": "application/json" },
          body: JSON.stringify({ source_config: {} }),
        });
        expect(patched.status, patched.text).toBe(200);
        // Another site's page is still refused, in the gate's words.
        const cross = await sendRaw(base, {
          method: "PATCH",
          headers: { host: `${name}:${port}`, origin: "https://evil.example", "x-api-key": "dev", "content-type": "application/json" },
          body: JSON.stringify({ source_config: {} }),
        });
        expect(cross.status).toBe(403);
        expect(cross.headers["content-type"]).toContain("application/problem+json");
        if (allowedHosts !== true) {
          const foreign = await sendRaw(base, { headers: { host: `other.test:${port}`, "x-api-key": "dev" } });
          expect(foreign.status).toBe(403);
        }
      } finally {
        await vite.close();
        await plugin.api.close();
      }
    }
  });

  it("refuses a state-changing request from a page on another site, and a body over the limit", async () => {
    const cross = await json(`${origin}/dms/v2/deployments/${DEPLOYMENT_ID}`, {
      method: "PATCH",
      headers: { origin: "https://evil.example" },
      body: JSON.stringify({ source_revision_config: { repo_ref: "evil" } }),
    });
    expect(cross.status).toBe(403);
    expect(cross.type).toBe("application/problem+json");
    const sameOrigin = await json(`${origin}/dms/v2/deployments/${DEPLOYMENT_ID}`, {
      method: "PATCH",
      headers: { origin },
      body: JSON.stringify({ source_config: {} }),
    });
    expect(sameOrigin.status).toBe(200);
    for (const framing of ["length", "chunked"] as const) {
      const huge = await upload(origin, {
        method: "PATCH",
        path: `/dms/v2/deployments/${DEPLOYMENT_ID}`,
        headers: { "x-api-key": "dev", "content-type": "application/json" },
        total: 4 * 1024 * 1024,
        framing,
      });
      expect(huge.status, framing).toBe(413);
      expect(huge.sentWhenAnswered, framing).toBeLessThan(4 * 1024 * 1024);
    }
  });

  it("keeps the PATCHed state across a server restart (what editing vite.config does) and a second copy of the plugin module", async () => {
    const patched = await json(`${origin}/dms/v2/deployments/${DEPLOYMENT_ID}`, {
      method: "PATCH",
      body: JSON.stringify({ source_revision_config: { repo_ref: "feature/hmr" } }),
    });
    const latest = patched.body.latest_revision_id as string;

    await server.restart();
    origin = originOf(server);
    expect((await json(`${origin}/dms/v2/deployments/${DEPLOYMENT_ID}`)).body.latest_revision_id).toBe(latest);

    // A config that bundles the package evaluates the plugin module again: a fresh module instance.
    const fresh = (await import(`${pluginUrl}?instance=${Date.now()}`)) as { simulatorPlugin: typeof SimulatorPluginFn };
    const again = fresh.simulatorPlugin({ prefix: "/dms", defaultApiKey: "dev", stepSeconds: 1, seedDeployments: 5 });
    expect(await again.api.simulator()).toBe(await pluginOf(server).api.simulator());
    const other = await startViteWith([again]);
    try {
      const seen = await json(`${originOf(other)}/dms/v2/deployments/${DEPLOYMENT_ID}`);
      expect(seen.body.latest_revision_id).toBe(latest);
    } finally {
      await other.close();
    }

    // Other options are another simulator: the seed of 2 deployments, not the PATCHed state of 5.
    const changed = fresh.simulatorPlugin({ prefix: "/other", seedDeployments: 2 });
    const sim = await changed.api.simulator();
    const response = await sim.fetch("http://localhost/v2/deployments", { headers: { "x-api-key": "dev" } });
    expect(((await response.json()) as { resources: unknown[] }).resources).toHaveLength(2);
    await changed.api.close();
  });

  it("keeps the PATCHed state when vite.config.ts is edited on disk and Vite restarts itself", async () => {
    const watching = await createServer({ root: app, configFile: join(app, "vite.config.ts"), logLevel: "silent", server: { host: "127.0.0.1", port: 0 } });
    await watching.listen();
    try {
      const base = `${originOf(watching)}/dms/v2/deployments/${DEPLOYMENT_ID}`;
      const patched = await json(base, { method: "PATCH", body: JSON.stringify({ source_revision_config: { repo_ref: "feature/edit" } }) });
      const before = pluginOf(watching);
      await writeFile(join(app, "vite.config.ts"), `${VITE_CONFIG}// edited\n`);
      // Vite swaps the plugin first and listens again after: wait for both, on a loaded machine too.
      await vi.waitFor(
        () => {
          expect(pluginOf(watching)).not.toBe(before);
          expect(watching.resolvedUrls?.local[0]).toBeTruthy();
        },
        { timeout: 30_000, interval: 100 },
      );
      const after = await json(`${originOf(watching)}/dms/v2/deployments/${DEPLOYMENT_ID}`);
      expect(after.body.latest_revision_id).toBe(patched.body.latest_revision_id);
    } finally {
      await writeFile(join(app, "vite.config.ts"), VITE_CONFIG);
      await watching.close();
    }
  });

  it("keeps the state in a file with `state`, and a state file it cannot use stops the server with its reason", async () => {
    const { simulatorPlugin } = (await import(pluginUrl)) as { simulatorPlugin: typeof SimulatorPluginFn };
    const first = simulatorPlugin({ prefix: "/saved", state: "state/sim.db", seedDeployments: 3 });
    const vite = await startViteWith([first]);
    const base = `${originOf(vite)}/saved`;
    const [seeded] = (await json(`${base}/v2/deployments?limit=1`)).body.resources;
    const patched = await json(`${base}/v2/deployments/${seeded.id}`, {
      method: "PATCH",
      body: JSON.stringify({ source_revision_config: { repo_ref: "saved" } }),
    });
    expect(patched.status).toBe(200);
    await vite.close();
    await first.api.close(); // what stopping `vite dev` does to the simulator: nothing of it stays in memory

    const second = simulatorPlugin({ prefix: "/saved", state: join(app, "state/sim.db"), seedDeployments: 3 });
    const restored = await second.api.simulator();
    const response = await restored.fetch(`http://localhost/v2/deployments/${seeded.id}`, { headers: { "x-api-key": "dev" } });
    expect(((await response.json()) as { latest_revision_id: string }).latest_revision_id).toBe(patched.body.latest_revision_id);
    await second.api.close();

    await writeFile(join(app, "not-a-state-file"), "this is not the simulator's state\n");
    const broken = simulatorPlugin({ prefix: "/broken", state: "not-a-state-file" });
    await expect(createServer({ root: app, configFile: false, logLevel: "silent", plugins: [broken], server: { port: 0, watch: null } })).rejects.toThrow(
      /not-a-state-file/,
    );
  });

  it("serves the faults and the latency asked for: a 503, a dropped connection, a slow answer", async () => {
    const added = await json(`${origin}/dms/_simulator/faults`, { method: "POST", body: JSON.stringify({ operation: "getDeployment", fault: 503 }) });
    expect(added.status).toBe(200);
    const failed = await json(`${origin}/dms/v2/deployments/${DEPLOYMENT_ID}`);
    expect(failed.status).toBe(503);
    expect(failed.type).toBe("application/problem+json");
    expect((await json(`${origin}/dms/v2/deployments/${DEPLOYMENT_ID}`)).status).toBe(200);

    await json(`${origin}/dms/_simulator/faults`, { method: "POST", body: JSON.stringify({ operation: "listDeployments", fault: "drop" }) });
    await expect(fetch(`${origin}/dms/v2/deployments`, { headers: { "x-api-key": "dev" } })).rejects.toThrow(TypeError);
    expect((await json(`${origin}/dms/v2/deployments`)).status).toBe(200);

    const { simulatorPlugin } = (await import(pluginUrl)) as { simulatorPlugin: typeof SimulatorPluginFn };
    const slow = simulatorPlugin({ prefix: "/slow", latency: 400 });
    const vite = await startViteWith([slow]);
    try {
      const started = performance.now();
      expect((await json(`${originOf(vite)}/slow/v2/deployments?limit=1`)).status).toBe(200);
      expect(performance.now() - started).toBeGreaterThanOrEqual(390);
    } finally {
      await vite.close();
      await slow.api.close();
    }
  });

  it('errors: "service" and keyScope: the service\'s FastAPI shapes and its organisation-key 403, through vite dev', async () => {
    const { simulatorPlugin } = (await import(pluginUrl)) as { simulatorPlugin: typeof SimulatorPluginFn };
    const shaped = simulatorPlugin({ prefix: "/shaped", errors: "service", keyScope: "organization" });
    const vite = await startViteWith([shaped]);
    try {
      const base = `${originOf(vite)}/shaped`;
      const refused = await json(`${base}/v2/deployments`);
      expect(refused).toMatchObject({ status: 403, type: "application/json" });
      expect(refused.body.detail).toContain("requires workspace specification");
      const invalid = await json(`${base}/v2/deployments?limit=500`, { headers: { "x-tenant-id": SEED_IDS.tenant_id } });
      expect(invalid).toMatchObject({ status: 422, type: "application/json", body: { detail: [{ loc: ["query", "limit"], type: "maximum" }] } });
    } finally {
      await vite.close();
      await shaped.api.close();
    }
  });

  it("serves the simulator in vite preview as well", async () => {
    await mkdir(join(app, "dist"), { recursive: true });
    await writeFile(join(app, "dist/index.html"), "<!doctype html><title>built</title>");
    const { simulatorPlugin } = (await import(pluginUrl)) as { simulatorPlugin: typeof SimulatorPluginFn };
    const plugin = simulatorPlugin({ prefix: "/preview-dms", seedDeployments: 2 });
    const server = await preview({ root: app, configFile: false, logLevel: "silent", plugins: [plugin], preview: { host: "127.0.0.1", port: 0 } });
    try {
      const base = server.resolvedUrls!.local[0]!.replace(/\/$/, "");
      expect((await json(`${base}/preview-dms/v2/deployments`)).body.resources).toHaveLength(2);
      expect((await json(`${base}/`)).body).toContain("<title>built</title>");
    } finally {
      await server.close();
      await plugin.api.close();
    }
  });

  it("names the option that is wrong", async () => {
    const { simulatorPlugin } = (await import(pluginUrl)) as { simulatorPlugin: typeof SimulatorPluginFn };
    expect(() => simulatorPlugin({ prefix: "dms" })).toThrow(/prefix/);
    expect(() => simulatorPlugin({ prefix: "/" })).toThrow(/prefix/);
    expect(() => simulatorPlugin({ prefix: "/dms?x" })).toThrow(/prefix/);
    expect(() => simulatorPlugin({ stepSeconds: -1 })).toThrow(/stepSeconds/);
    expect(() => simulatorPlugin({ seedDeployments: Number.NaN })).toThrow(/seedDeployments/);
    expect(() => simulatorPlugin({ state: "" })).toThrow(/state/);
    expect(() => simulatorPlugin({ apiKeys: [""] })).toThrow(/apiKeys/);
    expect(() => simulatorPlugin({ defaultApiKey: "" })).toThrow(/defaultApiKey/);
    expect(() => simulatorPlugin({ defaultApiKey: "a\nb" })).toThrow(/defaultApiKey/);
    expect(() => simulatorPlugin({ latency: -1 })).toThrow(/^simulatorPlugin: latency/);
    expect(() => simulatorPlugin({ faults: [{ fault: 418 as 500 }] })).toThrow(/^simulatorPlugin: faults/);
  });
});

if (!chromiumAvailable()) console.warn(`vite app test skipped: no chromium at ${CHROMIUM_PATH} (apt-get install chromium, or set CHROMIUM_PATH)`);

describe.skipIf(!chromiumAvailable())("a Vite app using the plugin, in Chromium", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("lists the simulator's deployments, fetched same-origin from /dms", async () => {
    const expected = (await json(`${origin}/dms/v2/deployments?limit=3`)).body.resources.map((d: { name: string }) => d.name);
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    const requests: string[] = [];
    const keysSent: string[] = [];
    page.on("request", (request) => {
      requests.push(request.url());
      const key = request.headers()["x-api-key"];
      if (key !== undefined) keysSent.push(key);
    });
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => document.querySelectorAll("#deployments li").length > 0, null, { timeout: 30_000 });
    expect(await page.locator("#deployments li").allTextContents()).toEqual(expected);
    expect(errors).toEqual([]);
    expect(requests.filter((url) => !url.startsWith(`${origin}/`))).toEqual([]);
    expect(requests.filter((url) => url.startsWith(`${origin}/dms/`)).length).toBeGreaterThan(0);
    expect(keysSent, "the page sends no API key: the plugin adds it").toEqual([]);
    await page.close();
  });
});
