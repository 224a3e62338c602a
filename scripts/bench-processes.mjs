// The servers a bench starts, each in a process group of its own (Prism forks a child that
// listens), stopped by group; groups still running when the bench exits, because it failed
// half-way, are killed then, so no server outlives it. Shared by the bench scripts.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const running = new Set();
process.on("exit", () => {
  for (const pid of running) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {}
  }
});

/** Resolves `ready` with the first line the child prints on stdout (the servers print their URL first). */
export const firstLine = (child, resolve) => createInterface({ input: child.stdout }).once("line", (line) => resolve(line.trim()));

/** Starts a server in its own process group; `ready` resolves with what `readyFrom` reads (its base URL). */
export function startGroup(command, args, readyFrom) {
  const child = spawn(command, args, { cwd: ROOT, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  running.add(child.pid);
  let stderr = "";
  child.stderr.on("data", (c) => (stderr += c));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const ready = new Promise((resolve, reject) => {
    readyFrom(child, resolve);
    exited.then((code) => reject(new Error(`${command} ${args.join(" ")} exited ${code}: ${stderr}`)));
    setTimeout(() => reject(new Error(`${command} did not start in 60 s: ${stderr}`)), 60_000).unref();
  });
  return { child, ready, stop: () => stopGroup(child, exited) };
}

async function stopGroup(child, exited) {
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {}
  }, 3000);
  await exited;
  clearTimeout(timer);
  running.delete(child.pid);
  // Prism's forked child may outlive its parent for a moment: make sure the group is gone.
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {}
}
