import { defineConfig } from "vitest/config";

// npm run test:fresh-clone: test/fresh-clone/fresh-clone.test.ts alone, which clones HEAD, installs
// it with npm ci and runs every documented command there (minutes; .ci/run runs it after npm test).
export default defineConfig({
  test: {
    include: ["test/fresh-clone/fresh-clone.test.ts"],
    testTimeout: 900_000,
    hookTimeout: 900_000,
    maxWorkers: 1,
  },
});
