// npm run simulate [-- flags]: runs the compiled simulator CLI (dist/simulator/node/cli.js) in this
// process, compiling first only when a source changed since the last compile. The CLI reads
// process.argv (the flags after `npm run simulate --`) and runs on import.
import { importCompiled } from "../build/compile-if-stale.ts";

await importCompiled("dist/simulator/node/cli.js");
