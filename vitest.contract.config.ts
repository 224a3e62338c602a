// `npm run test:contract`: only the contract suite against CONTRACT_BASE_URL (test/contract/external.contract.ts).
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/contract/**/*.contract.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
