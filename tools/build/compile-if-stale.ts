// Makes dist/ from src/ only when a source is newer than the last compile, or when a source was
// added, moved or removed since. Comparing modification times and names costs milliseconds.
//
// Two ways to compile, for two jobs:
// - JavaScript only (the launchers: `npm start`, `npm run simulate`, `npm run dms`, and `npm test`'s
//   global setup): esbuild strips the types file by file, with no type-check, in about a second.
//   The type-check is `npm run typecheck` and `npm run check`, not the first start.
// - JavaScript and declarations (`--declarations`, and `--clean` for the release's pack): `tsc -b
//   tsconfig.build.json`, the two projects (browser-safe and Node) with their .d.ts files.
//
// dist/ is never trusted to be what src/ makes: every run also deletes each output whose source is
// gone. A long-lived working copy once kept dist/simulator/cli.js after the CLI moved to
// dist/simulator/node/cli.js, and a launcher that still named the old path worked there while it
// crashed on every fresh clone.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { acquireCompileLock } from "./compile-lock.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
const dist = join(root, "dist");
// Written after each successful compile: its time stamps the compile, its text the sources it read
// (so an added, moved or deleted source compiles again though no remaining file is newer) and
// whether declarations were written.
const stamp = join(dist, ".compiled.json");

interface Stamp {
  sources: string[];
  declarations: boolean;
}

/** Every file below dir (relative paths), or none when dir does not exist. */
function filesBelow(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)));
}

/** src/'s TypeScript files, sorted: what either compile reads. */
function sources(): string[] {
  return filesBelow(join(root, "src"))
    .filter((name) => /\.tsx?$/.test(name) && !name.endsWith(".d.ts"))
    .sort();
}

const CONFIGS = ["tsconfig.json", "tsconfig.build.json", "tsconfig.core.json", "tsconfig.node.json", "package.json"];

/** The newest modification time (ms) of the files a compile reads. */
function newestSource(names: string[]): number {
  let newest = 0;
  for (const name of names) newest = Math.max(newest, statSync(join(root, "src", name)).mtimeMs);
  for (const name of filesBelow(join(root, "generated"))) {
    if (/\.(js|d\.ts|json)$/.test(name)) newest = Math.max(newest, statSync(join(root, "generated", name)).mtimeMs);
  }
  for (const file of CONFIGS) if (existsSync(join(root, file))) newest = Math.max(newest, statSync(join(root, file)).mtimeMs);
  return newest;
}

function readStamp(): { stamp: Stamp; at: number } | undefined {
  try {
    return { stamp: JSON.parse(readFileSync(stamp, "utf8")) as Stamp, at: statSync(stamp).mtimeMs };
  } catch {
    return undefined;
  }
}

/** Whether dist/ holds what src/ compiles to now (and its declarations, when asked). */
function isFresh(names: string[], declarations: boolean): boolean {
  const last = readStamp();
  if (!last || last.at < newestSource(names)) return false;
  if (JSON.stringify(last.stamp.sources) !== JSON.stringify(names)) return false;
  return !declarations || last.stamp.declarations;
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

/** Why dist/ cannot be written, in a few words, or undefined when the error is not the file system's. */
function unwritable(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === "EROFS") return "the checkout is on a read-only file system";
  if (code === "EACCES" || code === "EPERM") return "this user may not write to the checkout";
  if (typeof code === "string" && code.startsWith("E")) return `dist/ cannot be written (${code})`;
  return undefined;
}

export class CannotCompileError extends Error {}

/**
 * Compiles when dist/ is older than a source or the sources changed. Returns false when the compile
 * reported errors (tsc still emits; esbuild stops at a syntax error). Throws CannotCompileError when
 * the checkout cannot be written.
 */
export async function compileIfStale(options: { declarations?: boolean } = {}): Promise<boolean> {
  const declarations = options.declarations ?? false;
  const names = sources();
  if (isFresh(names, declarations)) return true;
  let release: () => void;
  try {
    // Not { recursive: true }: on a read-only file system Node reports a recursive mkdir as ENOENT.
    // Two launchers started at once on a fresh clone both find no dist/: the second's EEXIST is no error.
    try {
      mkdirSync(dist);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    release = await acquireCompileLock(root);
  } catch (error) {
    const reason = unwritable(error);
    if (reason) throw new CannotCompileError(`cannot compile src/ to dist/: ${reason}`);
    throw error;
  }
  try {
    // Another process may have compiled while this one waited for the lock: look again inside it.
    if (isFresh(names, declarations)) return true;
    removeOrphans(names);
    // After an esbuild emit, tsc -b would take its own build info as up to date and leave esbuild's
    // JavaScript in place (no comments, other bytes): what is packed must be tsc's, so it rebuilds all.
    const clean = declarations ? compileWithTsc(readStamp()?.stamp.declarations !== true) : await emitJavaScript(names);
    if (clean) {
      // Writing it is what stamps the compile's time.
      writeFileSync(stamp, JSON.stringify({ sources: names, declarations } satisfies Stamp));
    }
    markBinsExecutable();
    return clean;
  } finally {
    release();
  }
}

/** Types stripped file by file (esbuild), no type-check: what the launchers need, in about a second. */
async function emitJavaScript(names: string[]): Promise<boolean> {
  process.stderr.write("Sources changed since the last compile: emitting JavaScript (esbuild, no type-check)...\n");
  const esbuild = await import("esbuild");
  try {
    await esbuild.build({
      absWorkingDir: root,
      entryPoints: names.map((name) => `src/${name}`),
      outbase: "src",
      outdir: "dist",
      bundle: false,
      format: "esm",
      platform: "neutral",
      // esnext keeps the source's syntax as it is (an older target would drop the JSON import's `with` clause).
      target: "esnext",
      tsconfig: "tsconfig.json",
      logLevel: "error",
    });
    return true;
  } catch {
    // esbuild printed the error (file, line and column) itself.
    return false;
  }
}

/** JavaScript and declarations of both projects (tsc -b), for packing; type errors are reported and still emitted. */
function compileWithTsc(force: boolean): boolean {
  process.stderr.write(`Compiling src/ with declarations (tsc -b tsconfig.build.json${force ? " --force" : ""})...\n`);
  try {
    execFileSync(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-b", "tsconfig.build.json", ...(force ? ["--force"] : [])], {
      cwd: root,
      stdio: ["ignore", 2, 2],
    });
    return true;
  } catch {
    return false;
  }
}

/**
 * A launcher's one job (npm start, npm run simulate, npm run dms): compile when stale, then import a
 * module of dist/ (`dist/cli/main.js`). In a checkout that cannot be written, what dist/ has runs,
 * or one line says why nothing can.
 */
export async function importCompiled<Module = unknown>(path: string): Promise<Module> {
  const file = join(root, path);
  try {
    if (!(await compileIfStale()) && !existsSync(file)) process.exit(1);
  } catch (error) {
    if (!(error instanceof CannotCompileError)) throw error;
    if (!existsSync(file)) {
      process.stderr.write(`${error.message}, and it has no ${path}; run \`npm run build:ts\` where it can be written.\n`);
      process.exit(1);
    }
    process.stderr.write(`${error.message}; running the ${path} it has, which may be older than src/.\n`);
  }
  return import(pathToFileURL(file).href);
}

/**
 * Neither compile sets the executable bit; npm sets it when it installs the package, but in a
 * checkout `npm exec dms` runs the file in dist/ as it is and would be refused.
 */
export function markBinsExecutable(): void {
  const { bin = {} }: { bin?: Record<string, string> } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  for (const file of Object.values(bin)) {
    const path = join(root, file);
    if (existsSync(path)) chmodSync(path, 0o755);
  }
}

// Run as a script: `npm run build:ts` (--clean: dist/ deleted first, then tsc with declarations, so
// what ships is exactly what src/ compiles to today), the check lane's setup (--declarations) and
// npm test's setup (JavaScript only).
if (import.meta.main) {
  const clean = process.argv.includes("--clean");
  if (clean) rmSync(dist, { recursive: true, force: true });
  try {
    if (!(await compileIfStale({ declarations: clean || process.argv.includes("--declarations") }))) {
      process.stderr.write("the compile reported errors (above).\n");
      process.exitCode = 1;
    }
  } catch (error) {
    if (!(error instanceof CannotCompileError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exitCode = 1;
  }
}
