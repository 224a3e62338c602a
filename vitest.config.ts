import { configDefaults, defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
    // The fresh-clone test installs a clone and runs every command (minutes): npm run test:fresh-clone.
    exclude: [...configDefaults.exclude, "test/fresh-clone/fresh-clone.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    // Timeouts catch hangs, not slowness: a whole-project type-check took over 60 s while another
    // suite ran beside this one on the same two cores.
    testTimeout: 180_000,
    // expect.poll waits for an event, not for a time: its default second is too short on a loaded
    // machine (a reset seen only after a send that took longer), so it waits half a minute.
    expect: { poll: { timeout: 30_000 } },
    hookTimeout: 180_000,
    // Two cores: suites that start servers or compilers run two at a time.
    maxWorkers: 2,
  },
});
