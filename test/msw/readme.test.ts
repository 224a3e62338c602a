// The recipes of the README's "Simulator in tests and in the browser" section are the code that the
// recipe tests beside this file run: each ```ts block there is, line for line, the region between
// `// #region readme` and `// #endregion readme` of one recipe file, with the package's import names
// in place of the repository paths. So a recipe in the README cannot stop working unnoticed.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/document.js";

const SECTION = "## Simulator in tests and in the browser";
const RECIPES = ["recipe-vitest.test.ts", "recipe-storybook.test.ts", "recipe-fetch.test.ts"];

// The repository paths of the recipe files, and what a consumer imports instead.
const PACKAGE_NAMES: [string, string][] = [
  ['"../../src/index.js"', '"deployment-management-api"'],
  ['"../../src/msw.js"', '"deployment-management-api/msw"'],
  ['"../../src/simulator/node/index.js"', '"deployment-management-api/simulator"'],
];

function section(markdown: string): string {
  const start = markdown.indexOf(`\n${SECTION}\n`);
  if (start < 0) throw new Error(`README.md has no "${SECTION}" section`);
  const end = markdown.indexOf("\n## ", start + SECTION.length + 2);
  return markdown.slice(start, end < 0 ? undefined : end);
}

function tsBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```ts\b[^\n]*\n([\s\S]*?)^```[ \t]*$/gm)].map((m) => m[1]!);
}

/** The recipe's README region, dedented, with package import names. */
function region(source: string, file: string): string {
  const match = /^[ \t]*\/\/ #region readme\n([\s\S]*?)^[ \t]*\/\/ #endregion readme$/m.exec(source);
  if (!match) throw new Error(`${file} has no "// #region readme" ... "// #endregion readme"`);
  const lines = match[1]!.split("\n");
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => /^ */.exec(l)![0].length));
  let code = lines.map((l) => l.slice(indent)).join("\n");
  for (const [path, name] of PACKAGE_NAMES) code = code.replaceAll(path, name);
  return code;
}

describe(`README.md "${SECTION}"`, () => {
  it("shows each recipe exactly as its test runs it, in order: Vitest + MSW, Storybook, plain fetch", async () => {
    const blocks = tsBlocks(section(await readFile(join(ROOT, "README.md"), "utf8")));
    const regions = await Promise.all(RECIPES.map(async (file) => region(await readFile(join(ROOT, "test", "msw", file), "utf8"), file)));
    expect(blocks).toEqual(regions);
  });

  it("a recipe that differs from its test is caught", async () => {
    const source = await readFile(join(ROOT, "test", "msw", RECIPES[2]!), "utf8");
    const code = region(source, RECIPES[2]!);
    expect(code).toContain('from "deployment-management-api/simulator"');
    expect(region(source.replace("stepSeconds: 2", "stepSeconds: 3"), RECIPES[2]!)).not.toBe(code);
  });
});
