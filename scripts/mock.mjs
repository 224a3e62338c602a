#!/usr/bin/env node
// `npm start [-- flags]`: runs the mock's compiled command line (dist/mock/cli.js, from src/mock/),
// compiling src/ first only when a source changed since the last compile (milliseconds when none did).
import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { compileIfStale } from "./compile-if-stale.mjs";

const cli = fileURLToPath(new URL("../dist/mock/cli.js", import.meta.url));
if (!compileIfStale()) {
  if (!existsSync(cli)) process.exit(1);
  process.stderr.write("tsc reported errors (above); running what it emitted.\n");
}
const { runMockCli } = await import(pathToFileURL(cli).href);
await runMockCli();
