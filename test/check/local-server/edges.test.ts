// The same edges on every local server, as a table: the mock (npm start), the simulator (its bin),
// the docs server (npm run docs) and `dms mcp --port`, each a real child process, meet
// - a bad flag, and a bad value: exit 2 with the usage line;
// - a port in use: one line naming the port and how to choose another, exit 1;
// - SIGTERM or SIGINT with an idle and a half-sent connection open: stopped within a second, exit 0;
// - SIGTERM to the npm process of `npm start`, `npm run simulate` or `npm run docs`: no process left.
// All of them go through src/local-server/listen.ts. (The time bounds for slow clients, the same on
// every server too, are in time-bounds.test.ts.)
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { connect, createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../support/document.js";
import { freePort } from "../../support/free-port.js";
import { npm } from "../../support/run.js";

interface LocalServerCase {
  name: string;
  /** The command (after node) and its arguments, listening on `port`. */
  command(port: number, extra?: string[]): { args: string[]; env: Record<string, string> };
  /** The same with a value it cannot use. */
  badValue(port: number): { args: string[]; env: Record<string, string> };
  /** Its usage line. */
  usage: RegExp;
  /** How it says to choose another port. */
  otherPort: RegExp;
  /** The npm script that runs it, when there is one. */
  npmScript?: string[];
}

const DMS = join(ROOT, "dist/cli/main.js");
// A port nothing listens on, and not one of the Fetch standard's bad ports (dms refuses those): these tests never call it.
const DMS_ENV = { DMS_BASE_URL: "http://127.0.0.1:2", DMS_API_KEY: "edges-key" };

const SERVERS: LocalServerCase[] = [
  {
    name: "mock (npm start)",
    command: (port, extra = []) => ({ args: ["tools/run/mock.ts", ...extra], env: { PORT: String(port) } }),
    badValue: () => ({ args: ["tools/run/mock.ts"], env: { PORT: "not-a-port" } }),
    usage: /^usage: npm start/m,
    otherPort: /PORT/,
    npmScript: ["start"],
  },
  {
    name: "simulator (dms-simulator)",
    command: (port, extra = []) => ({ args: ["dist/simulator/node/cli.js", "--port", String(port), ...extra], env: {} }),
    badValue: (port) => ({ args: ["dist/simulator/node/cli.js", "--port", String(port), "--step-seconds", "soon"], env: {} }),
    usage: /^Usage: dms-simulator/m,
    otherPort: /--port/,
    npmScript: ["run", "simulate", "--", "--quiet"],
  },
  {
    name: "docs (npm run docs)",
    command: (port, extra = []) => ({ args: ["tools/docs/serve.ts", ...extra], env: { PORT: String(port) } }),
    badValue: () => ({ args: ["tools/docs/serve.ts"], env: { PORT: "not-a-port" } }),
    usage: /^usage: npm run docs/m,
    otherPort: /PORT/,
    npmScript: ["run", "docs"],
  },
  {
    name: "dms mcp --port",
    command: (port, extra = []) => ({ args: [DMS, "mcp", "--port", String(port), ...extra], env: DMS_ENV }),
    badValue: () => ({ args: [DMS, "mcp", "--port", "not-a-port"], env: DMS_ENV }),
    usage: /^Usage: dms mcp \[flags\]$/m,
    otherPort: /--port/,
  },
];

interface Child {
  process: ChildProcess;
  output(): string;
  /** Resolves with the exit code (or the signal's name) and when it came, in ms since `since`. */
  exited: Promise<{ code: number | string; at: number }>;
}

const started: ChildProcess[] = [];

function start(args: string[], env: Record<string, string>, options: { detached?: boolean; npmScript?: string[] } = {}): Child {
  const child = options.npmScript
    ? spawn(npm, options.npmScript, { cwd: ROOT, env: { ...process.env, ...env }, detached: true })
    : spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, detached: options.detached ?? false });
  started.push(child);
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<{ code: number | string; at: number }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code: code ?? signal ?? "?", at: performance.now() })),
  );
  return { process: child, output: () => output, exited };
}

/** Waits until the output shows a URL on `port`. */
async function listening(child: Child, port: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!child.output().includes(`:${port}`)) {
    if (child.process.exitCode !== null) throw new Error(`exited early: ${child.output()}`);
    if (Date.now() > deadline) throw new Error(`never said it listens on ${port}: ${child.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** An idle connection (no byte sent) and a half-sent request (headers not ended), held open. */
async function openConnections(port: number): Promise<Socket[]> {
  const open = (first: string) =>
    new Promise<Socket>((resolve, reject) => {
      const socket = connect(port, "127.0.0.1", () => {
        if (first) socket.write(first);
        resolve(socket);
      });
      socket.on("error", reject);
    });
  const sockets = await Promise.all([open(""), open("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Half: ")]);
  for (const socket of sockets) socket.on("error", () => undefined);
  return sockets;
}

/** The pids of a process's descendants, from /proc. */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // Gone meanwhile.
    }
  }
  const out: number[] = [];
  const visit = (p: number) => {
    for (const c of children.get(p) ?? []) {
      out.push(c);
      visit(c);
    }
  };
  visit(pid);
  return out;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    // A zombie (exited, not yet reaped) is no process left running.
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

let taken: Server;
let takenPort: number;
beforeAll(async () => {
  taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
  takenPort = (taken.address() as { port: number }).port;
});
afterAll(async () => {
  for (const child of started) {
    try {
      if (child.pid) process.kill(-child.pid, "SIGKILL");
    } catch {
      try {
        child.kill("SIGKILL");
      } catch {
        // Already gone.
      }
    }
  }
  await new Promise((resolve) => taken.close(resolve));
});

describe.concurrent.each(SERVERS)("$name", (server) => {
  it("a bad flag exits 2 with the usage line", async () => {
    const { args, env } = server.command(await freePort(), ["--bogus-flag"]);
    const child = start(args, env);
    expect((await child.exited).code, child.output()).toBe(2);
    expect(child.output()).toMatch(/--bogus-flag/);
    expect(child.output()).toMatch(server.usage);
  });

  it("a flag with control characters is shown with them made visible, never obeyed by the terminal, exit 2", async () => {
    const { args, env } = server.command(await freePort(), ["--bogus\x1b]0;owned\x07\x1b[2J"]);
    const child = start(args, env);
    expect((await child.exited).code, child.output()).toBe(2);
    expect(child.output()).toContain("--bogus\\x1B]0;owned\\x07\\x1B[2J");
    expect(child.output()).not.toMatch(/[\x07\x1b]/);
    expect(child.output()).toMatch(server.usage);
  });

  it("a bad value exits 2 with the usage line", async () => {
    const { args, env } = server.badValue(await freePort());
    const child = start(args, env);
    expect((await child.exited).code, child.output()).toBe(2);
    expect(child.output()).toMatch(server.usage);
  });

  it("a port in use is one line naming the port and how to choose another, exit 1", async () => {
    const { args, env } = server.command(takenPort);
    const child = start(args, env);
    expect((await child.exited).code, child.output()).toBe(1);
    const lines = child.output().trim().split("\n");
    expect(lines, child.output()).toHaveLength(1);
    expect(lines[0]).toContain(`port ${takenPort} is in use; choose another with`);
    expect(lines[0]).toMatch(server.otherPort);
  });

  it.each(["SIGTERM", "SIGINT"] as const)("%s stops it within a second with an idle and a half-sent connection open, exit 0", async (signal) => {
    const port = await freePort();
    const { args, env } = server.command(port);
    const child = start(args, env);
    await listening(child, port);
    const sockets = await openConnections(port);
    const sent = performance.now();
    child.process.kill(signal);
    const { code, at } = await child.exited;
    for (const socket of sockets) socket.destroy();
    expect(code, child.output()).toBe(0);
    // The stop's own bound is 900 ms; past a second, something held it.
    expect(at - sent, child.output()).toBeLessThan(1_000);
  });

  it.runIf(server.npmScript)("SIGTERM to the npm process that runs it leaves no process behind", async () => {
    const port = await freePort();
    const child = start([], { PORT: String(port) }, { npmScript: server.npmScript! });
    await listening(child, port);
    const tree = descendants(child.process.pid!);
    expect(tree.length, child.output()).toBeGreaterThan(0);
    child.process.kill("SIGTERM");
    await child.exited;
    const deadline = Date.now() + 5_000;
    while (tree.some(alive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(tree.filter(alive), child.output()).toEqual([]);
  });
});
