#!/usr/bin/env node
// Compiles src/ to dist/ (tsc -p tsconfig.build.json) only when a source is newer than the last
// compile. tsc's own incremental check costs seconds even when nothing changed; comparing
// modification times costs milliseconds. `npm install` runs it (the `prepare` script), so a fresh
// clone has dist/ and `npm run simulate` starts at once; later edits compile on the next run.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, readFileSync, readdirSync, statSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
// tsc's incremental state; its time stamps the last compile.
const stamp = join(root, "dist", ".tsbuildinfo");

/** The newest modification time (ms) of the files tsc reads to build dist/. */
function newestSource() {
  let newest = 0;
  const visit = (dir, keep) => {
    for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
      if (entry.isFile() && keep(entry.name)) newest = Math.max(newest, statSync(join(entry.parentPath ?? entry.path, entry.name)).mtimeMs);
    }
  };
  visit(join(root, "src"), (name) => name.endsWith(".ts"));
  visit(join(root, "generated"), (name) => /\.(js|d\.ts|json)$/.test(name));
  for (const file of ["tsconfig.json", "tsconfig.build.json", "package.json"]) newest = Math.max(newest, statSync(join(root, file)).mtimeMs);
  return newest;
}

/** Compiles when dist/ is older than a source. Returns false when tsc reported errors (it still emits). */
export function compileIfStale() {
  const compiledAt = existsSync(stamp) ? statSync(stamp).mtimeMs : -1;
  if (compiledAt >= newestSource()) return true;
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
  return clean;
}

/**
 * tsc writes files without the executable bit; npm sets it when it installs the package, but in a
 * checkout `npm exec dms` runs the file in dist/ as it is and would be refused.
 */
export function markBinsExecutable() {
  const { bin = {} } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  for (const file of Object.values(bin)) {
    const path = join(root, file);
    if (existsSync(path)) chmodSync(path, 0o755);
  }
}

// Run as a script (the `prepare` step of npm install, and after `npm run build:ts`): type errors are
// reported, but tsc still wrote dist/, so the install goes on; `npm run typecheck` and the tests fail
// on them instead.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (!compileIfStale()) process.stderr.write("tsc reported errors (above); dist/ was written all the same.\n");
  markBinsExecutable();
}
