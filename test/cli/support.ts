// Helpers for the dms tests: the CLI run as a child process (the compiled dist/cli/main.js), with an
// environment that holds only what each test gives, and the simulator's control API.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { join } from "node:path";
import { ROOT } from "../support/document.js";

export const DMS = process.env.DMS_UNDER_TEST ?? join(ROOT, "dist/cli/main.js");
export const API_KEY = "cli-test-key";

export interface DmsResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A child environment without the runner's own GITHUB_* or DMS_* variables. */
export function cleanEnv(env: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, LANG: "C.UTF-8" };
  for (const [name, value] of Object.entries(env)) if (value !== undefined) base[name] = value;
  return base;
}

/** Starts dms; the caller reads its streams and waits with `ended`. */
export function startDms(args: string[], env: Record<string, string | undefined> = {}) {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [DMS, ...args], { env: cleanEnv(env) });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const ended = new Promise<DmsResult>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  /** Resolves once stdout contains `text`. */
  const waitForStdout = (text: string, timeoutMs = 10_000) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no "${text}" on stdout within ${timeoutMs} ms: ${stdout}${stderr}`)), timeoutMs);
      const check = () => {
        if (!stdout.includes(text)) return;
        clearTimeout(timer);
        child.stdout.off("data", check);
        resolve();
      };
      child.stdout.on("data", check);
      check();
    });
  return { child, ended, waitForStdout };
}

export function dms(args: string[], env: Record<string, string | undefined> = {}): Promise<DmsResult> {
  return startDms(args, env).ended;
}

/** Every stdout line parsed as JSON; fails the test on a line that is not JSON. */
export function jsonLines(stdout: string): any[] {
  return stdout
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => {
      try {
        return JSON.parse(line);
      } catch {
        throw new Error(`stdout line is not JSON: ${line}`);
      }
    });
}

/** The simulator's control API and a few reads, with plain fetch. */
export class SimulatorControl {
  constructor(readonly url: string) {}

  env(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
    return { DMS_BASE_URL: this.url, DMS_API_KEY: API_KEY, ...extra };
  }

  async get(path: string): Promise<any> {
    const response = await fetch(this.url + path, { headers: { "X-Api-Key": API_KEY } });
    if (!response.ok) throw new Error(`GET ${path} -> ${response.status}`);
    return response.json();
  }

  async post(path: string, body: unknown): Promise<void> {
    const response = await fetch(this.url + path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`POST ${path} -> ${response.status} ${await response.text()}`);
  }

  failNext(deploymentId: string, status: "CREATE_FAILED" | "BUILD_FAILED" | "DEPLOY_FAILED"): Promise<void> {
    return this.post("/_simulator/fail-next", { deployment_id: deploymentId, status });
  }

  advance(seconds: number): Promise<void> {
    return this.post("/_simulator/advance", { seconds });
  }

  /** The ids of the seeded deployments, newest first. */
  async deploymentIds(): Promise<string[]> {
    const page = await this.get("/v2/deployments?limit=100");
    return page.resources.map((d: { id: string }) => d.id);
  }
}

/**
 * dms run in this process (runDms, the function the bin calls, with captured streams and only the
 * given environment): for the tests where no process boundary is under test, such as usage errors.
 */
export async function dmsInProcess(args: string[], env: Record<string, string | undefined> = {}): Promise<DmsResult> {
  const { runDms } = await import("../../src/cli/dispatch.js");
  const out: string[] = [];
  const err: string[] = [];
  const code = await runDms(args, {
    stdout: { isTTY: false, write: (text: string) => out.push(text) },
    stderr: { isTTY: false, write: (text: string) => err.push(text) },
    env: cleanEnv(env),
  });
  return { code, signal: null, stdout: out.join(""), stderr: err.join("") };
}
