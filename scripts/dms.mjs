#!/usr/bin/env node
// npm run dms -- <command> [flags]: runs the compiled dms (dist/cli/main.js) from a checkout,
// compiling src/ first only when a source changed since the last compile. An installed package
// runs its `dms` bin instead (npx dms); this launcher exists so a fresh clone needs no build step.
import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { compileIfStale } from "./compile-if-stale.mjs";

const cli = fileURLToPath(new URL("../dist/cli/main.js", import.meta.url));
if (!compileIfStale()) {
  if (!existsSync(cli)) process.exit(1);
  process.stderr.write("tsc reported errors (above); running what it emitted.\n");
}
// The CLI reads process.argv (the arguments after `npm run dms --`) and runs on import.
await import(pathToFileURL(cli).href);
