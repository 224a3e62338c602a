#!/usr/bin/env node
// `npm start [-- flags]`: runs the mock's compiled command line (dist/mock/cli.js, from src/mock/),
// which `npm install` compiled (the `prepare` script); it compiles nothing itself. Only when
// dist/ has no mock yet (an install with --ignore-scripts) does it compile src/ once first.
// After editing src/, `npm run build:ts` (or any test run) compiles again.
import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { compileIfStale } from "./compile-if-stale.mjs";

const cli = fileURLToPath(new URL("../dist/mock/cli.js", import.meta.url));
if (!existsSync(cli)) compileIfStale();
if (!existsSync(cli)) {
  console.error("mock: dist/mock/cli.js is missing and src/ did not compile; run npm run build:ts to see why");
  process.exit(1);
}
const { runMockCli } = await import(pathToFileURL(cli).href);
await runMockCli();
