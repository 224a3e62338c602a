import { defineConfig } from "vitest/config";

// `npm run check`: what guards the project as a whole, in test/check/: the type-check (both
// compilers, both projects), lint and format, the drift check, the pack and entry tests (one tarball,
// packed by test/check/global-setup.ts), the docs and code-sample builds, and the fuzz budget.
export default defineConfig({
  test: {
    include: ["test/check/**/*.test.ts", "test/check/**/*.test.tsx"],
    globalSetup: ["test/check/global-setup.ts"],
    // Timeouts catch hangs, not slowness: a whole-project type-check took over 60 s while another
    // suite ran beside it on the same two cores.
    testTimeout: 180_000,
    expect: { poll: { timeout: 30_000 } },
    hookTimeout: 180_000,
    maxWorkers: 2,
  },
});
