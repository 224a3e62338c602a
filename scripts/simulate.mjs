#!/usr/bin/env node
// npm run simulate [-- flags]: runs the compiled simulator CLI (dist/simulator/node/cli.js) in this
// process, compiling first only when a source changed since the last compile.
import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { compileIfStale } from "./compile-if-stale.mjs";

const cli = fileURLToPath(new URL("../dist/simulator/node/cli.js", import.meta.url));
if (!compileIfStale()) {
  if (!existsSync(cli)) process.exit(1);
  process.stderr.write("tsc reported errors (above); running what it emitted.\n");
}
// The CLI reads process.argv (the flags after `npm run simulate --`) and runs on import.
await import(pathToFileURL(cli).href);
