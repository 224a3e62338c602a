#!/usr/bin/env node
// `npm start [-- flags]`: runs the mock's compiled command line (dist/mock/cli.js, from src/mock/),
// compiling src/ first only when a source changed since the last compile (milliseconds when none did).
import { importCompiled } from "./compile-if-stale.mjs";

const { runMockCli } = await importCompiled("dist/mock/cli.js");
await runMockCli();
