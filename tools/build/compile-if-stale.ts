// Compiles src/ to dist/ (tsc -p tsconfig.build.json) only when a source is newer than the last
// compile, or when a source was added, moved or removed since. tsc's own incremental check costs
// seconds even when nothing changed; comparing modification times and names costs milliseconds.
// `npm test` (its global setup), `npm start`, `npm run simulate` and `npm run dms` run it, so a
// fresh clone compiles on its first command and later edits compile on the next one.
//
// dist/ is never trusted to be what src/ makes: every run also deletes each output whose source is
// gone. A long-lived working copy once kept dist/simulator/cli.js after the CLI moved to
// dist/simulator/node/cli.js, and a launcher that still named the old path worked there while it
// crashed on every fresh clone.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const dist = join(root, "dist");
// tsc's incremental state; its time stamps the last compile.
const stamp = join(dist, ".tsbuildinfo");
// The names of the sources that compile read, so an added, moved or deleted source compiles again
// even though no remaining file is newer than the stamp.
const sourceList = join(dist, ".sources.json");

/** Every file below dir (relative paths), or none when dir does not exist. */
function filesBelow(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)));
}

/** src/'s TypeScript files, sorted: what tsc -p tsconfig.build.json compiles. */
function sources(): string[] {
  return filesBelow(join(root, "src"))
    .filter((name) => /\.tsx?$/.test(name) && !name.endsWith(".d.ts"))
    .sort();
}

/** The newest modification time (ms) of the files tsc reads to build dist/. */
function newestSource(names: string[]): number {
  let newest = 0;
  for (const name of names) newest = Math.max(newest, statSync(join(root, "src", name)).mtimeMs);
  for (const name of filesBelow(join(root, "generated"))) {
    if (/\.(js|d\.ts|json)$/.test(name)) newest = Math.max(newest, statSync(join(root, "generated", name)).mtimeMs);
  }
  for (const file of ["tsconfig.json", "tsconfig.build.json", "package.json"]) newest = Math.max(newest, statSync(join(root, file)).mtimeMs);
  return newest;
}

function recordedSources(): string | undefined {
  try {
    return readFileSync(sourceList, "utf8");
  } catch {
    return undefined;
  }
}

/**
 * Deletes each output of dist/ whose source is gone (a.js, a.d.ts for src/a.ts); dist/'s own state
 * files (names starting with a dot) stay. Returns the paths deleted, relative to dist/.
 */
export function removeOrphans(names: string[] = sources()): string[] {
  const stems = new Set(names.map((name) => name.replace(/\.tsx?$/, "")));
  const removed: string[] = [];
  for (const output of filesBelow(dist)) {
    if (output.split(/[\\/]/).some((part) => part.startsWith("."))) continue;
    const stem = output.replace(/\.(d\.ts\.map|d\.ts|js\.map|js)$/, "");
    if (stem === output || stems.has(stem.split("\\").join("/"))) continue;
    rmSync(join(dist, output), { force: true });
    removed.push(output);
  }
  return removed;
}

// Held while one process compiles: `npm start`, `npm run simulate` and `npm run docs` started at
// once on a fresh clone would otherwise run two tsc processes into one dist/, and a launcher could
// import a file the other was still writing. mkdir is atomic; the folder holds its owner's pid.
const lock = join(root, "node_modules", ".cache", "dms-compile.lock");
const LOCK_WAIT_MS = 300_000;
// A lock whose owner wrote no pid within this long was left by a process killed as it took it.
const LOCK_UNOWNED_MS = 30_000;

function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Whether the lock's owner is gone: its pid no longer runs, or it never wrote one. */
function lockIsStale(): boolean {
  try {
    const pid = Number(readFileSync(join(lock, "pid"), "utf8"));
    if (!Number.isInteger(pid) || pid <= 0) return Date.now() - statSync(lock).mtimeMs > LOCK_UNOWNED_MS;
    try {
      process.kill(pid, 0);
      return false;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === "ESRCH";
    }
  } catch {
    try {
      return Date.now() - statSync(lock).mtimeMs > LOCK_UNOWNED_MS;
    } catch {
      return false;
    }
  }
}

/** Runs fn holding the compile lock; waits for another compile to end first (at most five minutes). */
function withCompileLock<T>(fn: () => T): T {
  mkdirSync(dirname(lock), { recursive: true });
  const deadline = Date.now() + LOCK_WAIT_MS;
  let told = false;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, "pid"), String(process.pid));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      if (lockIsStale()) {
        rmSync(lock, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`another compile has held ${lock} for five minutes; delete it if no compile is running`);
      if (!told) process.stderr.write("Another process is compiling src/; waiting for it...\n");
      told = true;
      pause(200);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Whether dist/ is at least as new as every source, from the same list of sources. */
function isFresh(names: string[], listed: string): boolean {
  const compiledAt = existsSync(stamp) ? statSync(stamp).mtimeMs : -1;
  return compiledAt >= newestSource(names) && recordedSources() === listed;
}

/** Compiles when dist/ is older than a source or the sources changed. Returns false when tsc reported errors (it still emits). */
export function compileIfStale(): boolean {
  const names = sources();
  const listed = JSON.stringify(names);
  removeOrphans(names);
  if (isFresh(names, listed)) return true;
  // Another process may have compiled while this one waited for the lock: look again inside it.
  return withCompileLock(() => (isFresh(names, listed) ? true : compile(listed)));
}

function compile(listed: string): boolean {
  process.stderr.write("Sources changed since the last compile: compiling (tsc -p tsconfig.build.json)...\n");
  let clean = true;
  try {
    execFileSync(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.build.json"], {
      cwd: root,
      stdio: ["ignore", 2, 2],
    });
  } catch {
    clean = false;
  }
  // tsc leaves its state file alone when the output did not change (a touched but unchanged source).
  if (existsSync(stamp)) utimesSync(stamp, new Date(), new Date());
  if (existsSync(dist)) writeFileSync(sourceList, listed);
  markBinsExecutable();
  return clean;
}

/**
 * A launcher's one job (npm start, npm run simulate, npm run dms): compile when stale, then import a
 * module of dist/ (`dist/cli/main.js`). Type errors are reported and what tsc emitted still runs;
 * when it emitted nothing there, the process exits 1.
 */
export async function importCompiled<Module = unknown>(path: string): Promise<Module> {
  const file = join(root, path);
  if (!compileIfStale()) {
    if (!existsSync(file)) process.exit(1);
    process.stderr.write("tsc reported errors (above); running what it emitted.\n");
  }
  return import(pathToFileURL(file).href);
}

/**
 * tsc writes files without the executable bit; npm sets it when it installs the package, but in a
 * checkout `npm exec dms` runs the file in dist/ as it is and would be refused.
 */
export function markBinsExecutable(): void {
  const { bin = {} }: { bin?: Record<string, string> } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  for (const file of Object.values(bin)) {
    const path = join(root, file);
    if (existsSync(path)) chmodSync(path, 0o755);
  }
}

// Run as a script (`npm run build:ts`, and test/global-setup.ts): type errors are
// reported, but tsc still wrote dist/; `npm run typecheck` and the tests fail on them instead.
// With --clean (npm run build:ts, and the release's pack) dist/ is deleted first, so what ships is
// exactly what src/ compiles to today.
if (import.meta.main) {
  if (process.argv.includes("--clean")) rmSync(dist, { recursive: true, force: true });
  if (!compileIfStale()) process.stderr.write("tsc reported errors (above); dist/ was written all the same.\n");
  markBinsExecutable();
}
