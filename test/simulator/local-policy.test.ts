// The node adapter as a server on a developer's machine, over real sockets: a foreign Host is
// refused (DNS rebinding), a cross-site text/plain POST cannot reset the state, a body over the
// limit gets 413 before it is read, and the CLI's --allowed-host / --cors-origin flags and its
// output (the URL alone on stdout, every message on stderr).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { problemDetails } from "../../src/shared/problems.js";
import { SEED_IDS, startSimulator, type RunningSimulator } from "../../src/simulator/node/index.js";
import { ROOT } from "../support/document.js";
import { sendRaw } from "../support/raw-http.js";

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/** A request with headers fetch will not let a test set (Host), and bodies sent as the test says. */
async function raw(url: string, method: string, headers: Record<string, string>, body?: string | Buffer): Promise<RawAnswer> {
  // The server may answer and close before the upload ends; the answer is what counts.
  const answer = await sendRaw(url, { method, headers, body, streamBody: true, answerMayCutUpload: true });
  return { status: answer.status, headers: answer.headers, body: answer.text ? JSON.parse(answer.text) : undefined };
}

let simulator: RunningSimulator;
beforeAll(async () => {
  simulator = await startSimulator({ port: 0, quiet: true, stepSeconds: 3600 });
});
afterAll(() => simulator.close());

const key = { "x-api-key": "k" };
const deploymentPath = `/v2/deployments/${SEED_IDS.deployment_id}`;

describe("node adapter: who may talk to it", () => {
  it("refuses a foreign Host with 403 problem+json; loopback names pass", async () => {
    const port = simulator.port;
    const foreign = await raw(`${simulator.url}${deploymentPath}`, "GET", { ...key, host: `evil.example:${port}` });
    expect(foreign.status).toBe(403);
    expect(foreign.headers["content-type"]).toMatch(/^application\/problem\+json/);
    expect(foreign.body.type).toBe(problemDetails("forbidden", "").type);
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`]) {
      expect((await raw(`${simulator.url}${deploymentPath}`, "GET", { ...key, host })).status, host).toBe(200);
    }
  });

  it("a cross-site text/plain POST cannot reset; nor can a same-machine one that is not JSON", async () => {
    await simulator.simulator.advance(3600 * 3);
    const before = (await simulator.simulator.status()).now;
    const crossSite = await raw(`${simulator.url}/_simulator/reset`, "POST", { origin: "https://evil.example", "content-type": "text/plain" }, "{}");
    expect(crossSite.status).toBe(403);
    const plain = await raw(`${simulator.url}/_simulator/reset`, "POST", { "content-type": "text/plain" }, "{}");
    expect(plain.status).toBe(415);
    const form = await raw(`${simulator.url}/_simulator/advance`, "POST", { "content-type": "application/x-www-form-urlencoded" }, "seconds=7200");
    expect(form.status).toBe(415);
    // Nothing moved: the clock is where advance left it (plus the wall time these requests took, on
    // a machine however loaded), neither back at the seed's (a reset) nor two hours on (an advance).
    const moved = Date.parse((await simulator.simulator.status()).now) - Date.parse(before);
    expect(moved).toBeGreaterThanOrEqual(0);
    expect(moved).toBeLessThan(3600_000);
  });

  it("a declared body over the limit gets 413 before it is read; so does a chunked one once it passes the limit", async () => {
    const declared = await raw(`${simulator.url}${deploymentPath}`, "PATCH", {
      ...key,
      "content-type": "application/json",
      "content-length": String(50 * 1024 * 1024),
    });
    expect(declared.status).toBe(413);
    expect(declared.body.type).toBe(problemDetails("content-too-large", "").type);
    const chunked = await raw(
      `${simulator.url}${deploymentPath}`,
      "PATCH",
      { ...key, "content-type": "application/json", "transfer-encoding": "chunked" },
      Buffer.alloc(3 * 1024 * 1024, 0x20),
    );
    expect(chunked.status).toBe(413);
    const control = await raw(`${simulator.url}/_simulator/advance`, "POST", { "content-type": "application/json", "content-length": String(2 * 1024 * 1024) });
    expect(control.status).toBe(413);
    // The server goes on answering.
    expect((await raw(`${simulator.url}${deploymentPath}`, "GET", key)).status).toBe(200);
  });

  it("a client that asks first (Expect: 100-continue) is told 413 and never asked for a too-large body; a fitting one is asked", async () => {
    const ask = (length: number) =>
      new Promise<{ status: number; continued: boolean }>((resolve, reject) => {
        const { hostname, port } = new URL(simulator.url);
        const headers = { ...key, "content-type": "application/json", "content-length": String(length), expect: "100-continue" };
        let continued = false;
        const req = httpRequest({ hostname, port, method: "PATCH", path: deploymentPath, headers }, (res) => {
          res.resume();
          res.on("end", () => resolve({ status: res.statusCode!, continued }));
        });
        req.on("continue", () => {
          continued = true;
          req.end("{}");
        });
        req.on("error", reject);
      });
    expect(await ask(50 * 1024 * 1024)).toEqual({ status: 413, continued: false });
    expect(await ask(2)).toEqual({ status: 200, continued: true });
  });
});

describe("the CLI (dist/simulator/node/cli.js)", () => {
  const work = mkdtempSync(join(tmpdir(), "dms-simulator-cli-"));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  function run(args: string[]) {
    const child = spawn(process.execPath, [join(ROOT, "dist/simulator/node/cli.js"), "--port", "0", ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    const stdoutLines: string[] = [];
    child.stderr.on("data", (c) => (stderr += c));
    createInterface({ input: child.stdout }).on("line", (line) => stdoutLines.push(line));
    const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const url = new Promise<string>((resolve, reject) => {
      const timer = setInterval(() => {
        if (stdoutLines.length > 0) {
          clearInterval(timer);
          resolve(stdoutLines[0]!);
        }
      }, 10);
      exit.then((code) => {
        clearInterval(timer);
        reject(new Error(`exited ${code}: ${stderr}`));
      });
    });
    url.catch(() => {});
    return { child, url, exit, stdoutLines, stderr: () => stderr };
  }

  it("prints the URL alone on stdout; the state-file notice and the banner go to stderr", async () => {
    const started = run(["--state", join(work, "state.json")]);
    const url = await started.url;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await fetch(`${url}${deploymentPath}`, { headers: key })).status).toBe(200);
    started.child.kill("SIGTERM");
    expect(await started.exit).toBe(0);
    expect(started.stdoutLines).toEqual([url]);
    expect(started.stderr()).toMatch(/does not exist yet/);
    expect(started.stderr()).toContain(url);
  });

  it("--allowed-host adds a Host name; --cors-origin adds an origin; bad values exit 2 naming the flag", async () => {
    const started = run(["--quiet", "--allowed-host", "dev.example.test", "--cors-origin", "https://app.example.test"]);
    const url = await started.url;
    const port = new URL(url).port;
    expect((await raw(`${url}${deploymentPath}`, "GET", { ...key, host: `dev.example.test:${port}` })).status).toBe(200);
    expect((await raw(`${url}${deploymentPath}`, "GET", { ...key, host: `other.example.test:${port}` })).status).toBe(403);
    const cors = await raw(`${url}${deploymentPath}`, "GET", { ...key, origin: "https://app.example.test" });
    expect(cors.headers["access-control-allow-origin"]).toBe("https://app.example.test");
    started.child.kill("SIGTERM");
    await started.exit;

    for (const [flag, value] of [
      ["--allowed-host", "http://x.example"],
      ["--cors-origin", "*"],
    ]) {
      const bad = run([flag!, value!]);
      expect(await bad.exit, `${flag} ${value}`).toBe(2);
      expect(bad.stderr()).toContain(flag);
      expect(bad.stdoutLines).toEqual([]);
    }
  });
});
