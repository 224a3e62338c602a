// The Vite, Vitest + MSW + Testing Library and Storybook recipes of docs/react-and-testing.md are the
// code the tests run: each is, line for line, a ```ts or ```tsx block of the page. A file's part is
// the region between `// #region readme` and `// #endregion readme` (dedented, with the package's
// import names in place of the repository paths); the Vite app's files are the strings the Vite
// test writes into its consumer project. So a recipe on the page cannot stop working unnoticed.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { docRegion } from "../support/doc-region.js";
import { ROOT } from "../support/document.js";
import { MAIN_TS, VITE_CONFIG } from "../vite/app-files.js";

const PAGE = "docs/react-and-testing.md";

// The repository paths of the recipe files, and what a consumer writes instead.
const PACKAGE_NAMES: [string, string][] = [
  ['"../../src/index.js"', '"deployment-management-api"'],
  ['"../../src/msw.js"', '"deployment-management-api/msw"'],
  ['"../../src/simulator/node/index.js"', '"deployment-management-api/simulator"'],
  ['"../../src/simulator/core/index.js"', '"deployment-management-api/simulator"'],
  ['"../recipes/DeploymentCard.js"', '"./DeploymentCard"'],
  ['"../../recipes/DeploymentCard.js"', '"./DeploymentCard"'],
  ['"./DeploymentCard.js"', '"./DeploymentCard"'],
];

// In the order the page shows them.
const REGION_FILES = [
  "test/recipes/DeploymentCard.tsx",
  "test/recipes/vitest-msw-testing-library.test.tsx",
  "test/check/storybook/.storybook/preview.ts",
  "test/check/storybook/DeploymentCard.stories.tsx",
];

function blocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```(?:ts|tsx)\b[^\n]*\n([\s\S]*?)^```[ \t]*$/gm)].map((m) => m[1]!);
}

const region = (source: string, file: string) => docRegion(source, file, PACKAGE_NAMES);

describe(PAGE, () => {
  it("shows the Vite app, the Testing Library recipe and the Storybook recipe exactly as the tests run them, in order", async () => {
    const shown = blocks(await readFile(join(ROOT, PAGE), "utf8"));
    const recipes = [
      ["test/vite/app-files.ts VITE_CONFIG", VITE_CONFIG],
      ["test/vite/app-files.ts MAIN_TS", MAIN_TS],
      ...(await Promise.all(REGION_FILES.map(async (file) => [file, region(await readFile(join(ROOT, file), "utf8"), file)] as const))),
    ] as const;
    const positions = recipes.map(([, code]) => shown.indexOf(code));
    const missing = recipes.filter((_, i) => positions[i]! < 0).map(([where]) => where);
    expect(missing, `every recipe stands in ${PAGE} as a whole ts or tsx block`).toEqual([]);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it("a recipe that differs from its test is caught", async () => {
    const file = REGION_FILES[1]!;
    const source = await readFile(join(ROOT, file), "utf8");
    const code = region(source, file);
    expect(code).toContain('from "deployment-management-api/msw"');
    expect(code).toContain('from "./DeploymentCard"');
    expect(blocks(await readFile(join(ROOT, PAGE), "utf8"))).toContain(code);
    expect(region(source.replace("retries: 0", "retries: 1"), file)).not.toBe(code);
  });
});
