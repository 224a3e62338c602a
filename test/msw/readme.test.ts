// The recipes of docs/react-and-testing.md are the code that the recipe tests beside this file run:
// each recipe's ```ts block there is, line for line, the region between
// `// #region readme` and `// #endregion readme` of one recipe file, with the package's import names
// in place of the repository paths. So a recipe in the docs cannot stop working unnoticed.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { docRegion } from "../support/doc-region.js";
import { ROOT } from "../support/document.js";

const PAGE = "docs/react-and-testing.md";
// The Storybook, Vite and Testing Library recipes are checked by test/recipes/docs.test.ts.
const RECIPES = ["recipe-vitest.test.ts", "recipe-fetch.test.ts"];

// The repository paths of the recipe files, and what a consumer imports instead.
const PACKAGE_NAMES: [string, string][] = [
  ['"../../src/index.js"', '"deployment-management-api"'],
  ['"../../src/msw.js"', '"deployment-management-api/msw"'],
  ['"../../src/simulator/node/index.js"', '"deployment-management-api/simulator"'],
];

function tsBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```ts\b[^\n]*\n([\s\S]*?)^```[ \t]*$/gm)].map((m) => m[1]!);
}

const region = (source: string, file: string) => docRegion(source, file, PACKAGE_NAMES);

describe(PAGE, () => {
  it("shows each recipe exactly as its test runs it, in order: Vitest + MSW, plain fetch", async () => {
    const blocks = tsBlocks(await readFile(join(ROOT, PAGE), "utf8"));
    const regions = await Promise.all(RECIPES.map(async (file) => region(await readFile(join(ROOT, "test", "msw", file), "utf8"), file)));
    const positions = regions.map((code) => blocks.indexOf(code));
    expect(
      positions.every((p) => p >= 0),
      `every recipe stands in ${PAGE} as a whole ts block`,
    ).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it("a recipe that differs from its test is caught", async () => {
    const source = await readFile(join(ROOT, "test", "msw", RECIPES[1]!), "utf8");
    const code = region(source, RECIPES[1]!);
    expect(code).toContain('from "deployment-management-api/simulator"');
    expect(region(source.replace("stepSeconds: 2", "stepSeconds: 3"), RECIPES[1]!)).not.toBe(code);
  });
});
