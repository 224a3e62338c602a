import { configDefaults, defineConfig } from "vitest/config";

// `npm test`, the fast lane: unit, integration, contract and browser tests. What guards the project
// as a whole (the type-check, lint and format, drift, pack and entry tests, the docs builds, the
// fuzz budget) lives in test/check/ and runs with `npm run check` (vitest.check.config.ts); the
// fresh-clone test is `npm run test:fresh-clone`.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
    exclude: [...configDefaults.exclude, "test/check/**", "test/fresh-clone/fresh-clone.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    // Timeouts catch hangs, not slowness: on two loaded cores a server's first start has taken tens
    // of seconds.
    testTimeout: 120_000,
    // expect.poll waits for an event, not for a time: its default second is too short on a loaded
    // machine (a reset seen only after a send that took longer), so it waits half a minute.
    expect: { poll: { timeout: 30_000 } },
    hookTimeout: 120_000,
    // Two cores: suites that start servers or compilers run two at a time.
    maxWorkers: 2,
    // A worker runs file after file instead of one new worker a file: about a quarter of the lane's
    // time was spawning workers and importing the same modules again. Every suite closes what it
    // starts (servers, MSW's interception, browsers) in its own afterAll, which this relies on.
    isolate: false,
  },
});
