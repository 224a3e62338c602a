// `npm start [-- flags]`: runs the mock's compiled command line (dist/mock/cli.js, from src/mock/),
// compiling src/ first only when a source changed since the last compile (milliseconds when none did).
import { importCompiled } from "../build/compile-if-stale.ts";

/** What dist/mock/cli.js exports (src/mock/cli.ts). */
interface MockCli {
  runMockCli(): Promise<void>;
}

const { runMockCli } = await importCompiled<MockCli>("dist/mock/cli.js");
await runMockCli();
