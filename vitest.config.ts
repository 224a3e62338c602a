import { configDefaults, defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
    // The fresh-clone test installs a clone and runs every command (minutes): npm run test:fresh-clone.
    exclude: [...configDefaults.exclude, "test/fresh-clone/fresh-clone.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Two cores: suites that start servers or compilers run two at a time.
    maxWorkers: 2,
  },
});
