// Helpers for the mock's tests: raw HTTP requests (fetch cannot set Host, and hides how much of a
// body was sent) and `npm start` as a real child process, stopped by its process group.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import type http from "node:http";
import { freePort } from "../support/free-port.js";
import { ROOT } from "../support/document.js";
import { sendRaw } from "../support/raw-http.js";

export const KEY = { "x-api-key": "dev" };
export const DEPLOYMENT = "/v2/deployments/3fa85f64-5717-4562-b3fc-2c963f66afa6";

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json(): any;
}

/** One request with exactly these headers (Host included). */
export async function raw(
  baseUrl: string,
  options: { method?: string; path?: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<RawAnswer> {
  const { status, headers, text } = await sendRaw(baseUrl, { ...options, path: options.path ?? "/" });
  return { status, headers, text, json: () => JSON.parse(text) };
}

export interface MockProcess {
  baseUrl: string;
  child: ChildProcess;
  output(): string;
  /** Peak and current resident memory of the mock's process, in MiB (Linux /proc). */
  memory(): { peakMiB: number; rssMiB: number };
  stop(): Promise<void>;
}

/** `npm start -- ...args` as the README runs it (node tools/run/mock.ts), in its own process group. */
export async function startMockProcess(args: string[] = [], env: Record<string, string> = {}): Promise<MockProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ["tools/run/mock.ts", ...args], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), LOG_LEVEL: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid!, "SIGTERM");
      } catch {
        // Already gone.
      }
      await exited;
    }
  };
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}: ${output}`);
    const ready = await raw(baseUrl, { path: "/v2/listeners", headers: KEY }).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) break;
    // A bound on a hang, not a speed goal: a first compile on a loaded machine takes tens of seconds.
    if (Date.now() - started > 90_000) {
      await stop();
      throw new Error(`npm start did not answer within 90 s: ${output}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    baseUrl,
    child,
    output: () => output,
    memory: () => {
      const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
      const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
      return { peakMiB: kib("VmHWM") / 1024, rssMiB: kib("VmRSS") / 1024 };
    },
    stop,
  };
}

/** Whether a body shows anything of the machine: a stack frame, a file path, a module folder. */
export function showsInternals(text: string): boolean {
  return text.includes(ROOT.replace(/\/$/, "")) || /\n\s+at |\bat [\w.<>]+ \(|node_modules|\/home\/|\/usr\/|[A-Za-z]:\\|\.(c|m)?js:\d+/.test(text);
}

export { freePort };
