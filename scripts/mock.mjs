#!/usr/bin/env node
// `npm start [-- flags]`: runs the mock's compiled command line (dist/mock/cli.js, from src/mock/),
// which `npm install` compiled (the `prepare` script). Like `npm run simulate`, it compiles first
// only when a source changed since the last compile, so an edit to src/ is what runs.
import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { compileIfStale } from "./compile-if-stale.mjs";

const cli = fileURLToPath(new URL("../dist/mock/cli.js", import.meta.url));
if (!compileIfStale() && !existsSync(cli)) {
  console.error("mock: cannot compile src/ to dist/; run npm run build:ts to see why");
  process.exit(1);
}
const { runMockCli } = await import(pathToFileURL(cli).href);
await runMockCli();
