// The lock one compile of a checkout holds: `npm start`, `npm run simulate` and `npm run docs` started
// at once on a fresh clone would otherwise write one dist/ twice, and a launcher could import a file
// the other was still writing. mkdir is atomic; the folder holds its owner's identity.
//
// A lock is taken over, not waited on, when its owner is not a compile of this checkout: its pid no
// longer runs, or it runs but is another process (a pid reused after a restart has another start
// time; a live process of another program does not have this checkout as its working folder). An
// interrupted compile (Ctrl+C, SIGTERM) removes its lock on the way out.
import { mkdirSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

const WAIT_MS = 300_000;
// A lock whose owner wrote no identity within this long was left by a process killed as it took it.
const UNOWNED_MS = 30_000;

interface Owner {
  pid: number;
  /** The kernel's start time of the process (Linux: field 22 of /proc/<pid>/stat), when known. */
  started?: string;
  root: string;
}

/** Where the lock of the checkout at root lives: inside it, so two checkouts never share one. */
export function lockPath(root: string): string {
  return join(root, "dist", ".compile.lock");
}

/** The start time the kernel gives a process, or undefined where /proc is not there to ask. */
function startTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) is in parentheses and may hold spaces: count from after it.
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

/** Whether the process works in this checkout: its working folder, or a path on its command line. */
function worksIn(pid: number, root: string): boolean | undefined {
  try {
    const cwd = readlinkSync(`/proc/${pid}/cwd`);
    const commandLine = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    return join(cwd, "/") === join(root, "/") || commandLine.includes(join(root, "/"));
  } catch {
    return undefined;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Whether the owner recorded in the lock is a live compile of this checkout. */
export function ownerIsLive(owner: Owner, root: string): boolean {
  if (!Number.isInteger(owner.pid) || owner.pid <= 0 || !isRunning(owner.pid)) return false;
  const started = startTime(owner.pid);
  // A pid reused after a restart or by a later process starts at another time.
  if (owner.started !== undefined && started !== undefined && started !== owner.started) return false;
  // A live process of another program (a pid the owner's restart handed on) does not work here.
  return worksIn(owner.pid, root) !== false;
}

function isStale(lock: string, root: string): boolean {
  try {
    return !ownerIsLive(JSON.parse(readFileSync(join(lock, "owner.json"), "utf8")) as Owner, root);
  } catch {
    try {
      return Date.now() - statSync(lock).mtimeMs > UNOWNED_MS;
    } catch {
      return false;
    }
  }
}

/**
 * Takes the checkout's compile lock, waiting (at most five minutes) while a live compile of this
 * checkout holds it. Returns the release; until it is called, SIGINT and SIGTERM release it and end
 * the process as they would have.
 */
export async function acquireCompileLock(root: string): Promise<() => void> {
  const lock = lockPath(root);
  const deadline = Date.now() + WAIT_MS;
  let told = false;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      if (isStale(lock, root)) {
        rmSync(lock, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`another compile has held ${lock} for five minutes; delete it if no compile is running`);
      if (!told) process.stderr.write("Another process is compiling src/; waiting for it...\n");
      told = true;
      await sleep(100);
    }
  }
  const owner: Owner = { pid: process.pid, root };
  const started = startTime(process.pid);
  if (started !== undefined) owner.started = started;
  writeFileSync(join(lock, "owner.json"), JSON.stringify(owner));
  const release = () => {
    rmSync(lock, { recursive: true, force: true });
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  };
  const onSignal = (signal: NodeJS.Signals) => {
    release();
    process.kill(process.pid, signal);
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  return release;
}
