// The servers a bench starts, each in a process group of its own (Prism forks a child that
// listens), stopped by group; groups still running when the bench exits, because it failed
// half-way, are killed then, so no server outlives it. Shared by the benches.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const running = new Set<number>();
process.on("exit", () => {
  for (const pid of running) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {}
  }
});

/** Reads when a started server is ready, and resolves with its base URL. */
export type ReadyFrom = (child: ChildProcessWithoutNullStreams, resolve: (url: string) => void) => void;

/** A server started in a process group of its own. */
export interface ServerGroup {
  child: ChildProcessWithoutNullStreams;
  ready: Promise<string>;
  stop: () => Promise<void>;
}

/** Resolves `ready` with the first line the child prints on stdout (the servers print their URL first). */
export const firstLine: ReadyFrom = (child, resolve) => createInterface({ input: child.stdout }).once("line", (line) => resolve(line.trim()));

/** Starts a server in its own process group; `ready` resolves with what `readyFrom` reads (its base URL). */
export function startGroup(command: string, args: string[], readyFrom: ReadyFrom): ServerGroup {
  // stdin is ignored, so the child has no stdin stream; the type below describes the two it has.
  const child = spawn(command, args, { cwd: ROOT, detached: true, stdio: ["ignore", "pipe", "pipe"] }) as unknown as ChildProcessWithoutNullStreams;
  running.add(child.pid!);
  let stderr = "";
  child.stderr.on("data", (c) => (stderr += c));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const ready = new Promise<string>((resolve, reject) => {
    readyFrom(child, resolve);
    exited.then((code) => reject(new Error(`${command} ${args.join(" ")} exited ${code}: ${stderr}`)));
    setTimeout(() => reject(new Error(`${command} did not start in 60 s: ${stderr}`)), 60_000).unref();
  });
  return { child, ready, stop: () => stopGroup(child, exited) };
}

async function stopGroup(child: ChildProcessWithoutNullStreams, exited: Promise<unknown>): Promise<void> {
  const pid = child.pid!;
  try {
    process.kill(-pid, "SIGTERM");
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {}
  }, 3000);
  await exited;
  clearTimeout(timer);
  running.delete(pid);
  // Prism's forked child may outlive its parent for a moment: make sure the group is gone.
  try {
    process.kill(-pid, "SIGKILL");
  } catch {}
}
