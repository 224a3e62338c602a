// npm run dms -- <command> [flags]: runs the compiled dms (dist/cli/main.js) from a checkout,
// compiling src/ first only when a source changed since the last compile. An installed package
// runs its `dms` bin instead (npx dms); this launcher exists so a fresh clone needs no build step.
// The CLI reads process.argv (the arguments after `npm run dms --`) and runs on import.
import { importCompiled } from "../build/compile-if-stale.ts";

await importCompiled("dist/cli/main.js");
