// `npm start` and the front it serves: what the README promises about the mock, checked over real
// HTTP; and the two Prism limits the front exists for, checked on bare Prism so that a Prism
// upgrade that fixes them shows up here.
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../support/document.js";
import { startPrism, type RunningPrism } from "../support/prism.js";
import { freePort } from "../mock/support.js";

const DEPLOYMENT = "/v2/deployments/3fa85f64-5717-4562-b3fc-2c963f66afa6";
const key = { "x-api-key": "dev" };

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

describe("bare Prism (what the front fixes)", () => {
  let prism: RunningPrism;
  beforeAll(async () => {
    prism = await startPrism();
  });
  afterAll(async () => {
    await prism.close();
  });

  it("answers malformed JSON with a 400 that is not problem+json", async () => {
    const response = await fetch(prism.baseUrl + DEPLOYMENT, { method: "PATCH", headers: { ...key, "content-type": "application/json" }, body: "{oops" });
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).not.toMatch(/problem\+json/);
  });

  it("answers a 422 with the documented example body; the real violation is only in sl-violations", async () => {
    const response = await fetch(`${prism.baseUrl}/v2/listeners?offset=-1`, { headers: key });
    expect(response.status).toBe(422);
    const violations = JSON.parse(response.headers.get("sl-violations") ?? "[]");
    expect(violations[0].location).toEqual(["request", "query", "offset"]);
    const body = await response.json();
    // The example names no field at all: bare Prism cannot know which one was wrong.
    expect(body.errors ?? []).toEqual([]);
  });

  it("frees its port on close()", async () => {
    const other = await startPrism();
    const port = Number(new URL(other.baseUrl).port);
    await fetch(`${other.baseUrl}/v2/listeners`, { headers: key }); // leaves a keep-alive socket
    await other.close();
    expect(await portIsFree(port)).toBe(true);
  });
});

describe("the mock behind its front (npm start)", () => {
  let mock: RunningPrism;
  beforeAll(async () => {
    mock = await startPrism({ front: true });
  });
  afterAll(async () => {
    await mock.close();
  });

  it("answers malformed JSON with a problem+json 400", async () => {
    const response = await fetch(mock.baseUrl + DEPLOYMENT, { method: "PATCH", headers: { ...key, "content-type": "application/json" }, body: "{oops" });
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect((await response.json()).errors).toEqual([expect.objectContaining({ pointer: "" })]);
  });

  it("lists the real violations in a 422's errors", async () => {
    const response = await fetch(mock.baseUrl + DEPLOYMENT, {
      method: "PATCH",
      headers: { ...key, "content-type": "application/json" },
      body: JSON.stringify({ name: "renamed", source_config: { resource_spec: { min_scale: "two" } } }),
    });
    expect(response.status).toBe(422);
    const body = await response.json();
    expect(body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual(["/name", "/source_config/resource_spec/min_scale"]);
    expect(body.detail).toBe("The request has 2 invalid fields.");
  });

  it("picks a documented example with Prefer: example=NAME and a status with Prefer: code=NNN", async () => {
    const docker = await fetch(mock.baseUrl + DEPLOYMENT, { headers: { ...key, prefer: "example=DeploymentExternalDocker" } });
    expect(docker.status).toBe(200);
    expect((await docker.json()).source).toBe("external_docker");
    const missing = await fetch(mock.baseUrl + DEPLOYMENT, { headers: { ...key, prefer: "code=404" } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  });

  it("lets a browser page on another origin call it (CORS), its own 400 included", async () => {
    const origin = "http://localhost:3000";
    const preflight = await fetch(mock.baseUrl + DEPLOYMENT, {
      method: "OPTIONS",
      headers: { origin, "access-control-request-method": "PATCH", "access-control-request-headers": "x-api-key,content-type" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe(origin);
    const malformed = await fetch(mock.baseUrl + DEPLOYMENT, { method: "PATCH", headers: { ...key, origin, "content-type": "application/json" }, body: "{" });
    expect(malformed.status).toBe(400);
    expect(malformed.headers.get("access-control-allow-origin")).toBe(origin);
  });

  it("closes the front and Prism behind it", async () => {
    const other = await startPrism({ front: true });
    const port = Number(new URL(other.baseUrl).port);
    await fetch(`${other.baseUrl}/v2/listeners`, { headers: key });
    await other.close();
    expect(await portIsFree(port)).toBe(true);
  });
});

describe("npm start (tools/run/mock.ts)", () => {
  it("serves on PORT within a few seconds, quietly, and exits on SIGTERM", async () => {
    const port = await freePort();
    const started = performance.now();
    const child = spawn(process.execPath, ["tools/run/mock.ts"], {
      cwd: ROOT,
      env: { ...process.env, PORT: String(port), LOG_LEVEL: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    try {
      let ready = false;
      while (!ready && performance.now() - started < 50_000 && child.exitCode === null) {
        ready = await fetch(`http://127.0.0.1:${port}/v2/listeners`, { headers: key }).then(
          (r) => r.ok,
          () => false,
        );
        if (!ready) await new Promise((r) => setTimeout(r, 25));
      }
      const startupMs = performance.now() - started;
      console.log(`npm start: first successful answer ${startupMs.toFixed(0)} ms after spawn`);
      expect(ready, output).toBe(true);
      // About 2 s on an idle machine; how fast is npm run bench's to judge (bench-start), not a test's.
      expect((await fetch(`http://127.0.0.1:${port}/v2/listeners`)).status).toBe(401);
      // Quiet by default: the banner only, no per-request log lines.
      expect(output).toContain(`http://127.0.0.1:${port}`);
      expect(output).not.toMatch(/GET \/v2\/listeners/);
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
    expect(await portIsFree(port)).toBe(true);
  });
});
