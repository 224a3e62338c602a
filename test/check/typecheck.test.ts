// Runs the real compilers over the type tests in test/types (and the whole project with tsc 5.9):
// TypeScript 5.9, which openapi-typescript needs, and TypeScript 7 (the native compiler), which
// consumers may use. A @ts-expect-error that is not an error fails the check too.
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../support/document.js";
import { typeCheck } from "../support/tsc.js";

const compilers = {
  "TypeScript 5.9": join(ROOT, "node_modules/typescript/bin/tsc"),
  "TypeScript 7": join(ROOT, "node_modules/typescript7/bin/tsc"),
};

const tsc = (bin: string, project: string) => typeCheck(project, { tsc: bin });

describe("type tests", () => {
  for (const [name, bin] of Object.entries(compilers)) {
    it.runIf(existsSync(bin))(`${name} accepts test/types and every @ts-expect-error is an error`, async () => {
      expect(await tsc(bin, "test/types/tsconfig.json")).toBe("");
    });
  }

  it("TypeScript 5.9 type-checks the whole project (src, tests)", async () => {
    expect(await tsc(compilers["TypeScript 5.9"], "tsconfig.json")).toBe("");
  });

  it("TypeScript 5.9 type-checks the browser-safe project (tsconfig.core.json) with no Node types", async () => {
    expect(await tsc(compilers["TypeScript 5.9"], "tsconfig.core.json")).toBe("");
  });
});

describe("the line between browser-safe code and Node", () => {
  // A probe beside src/client (in a gitignored folder): a project with tsconfig.core.json's settings
  // that compiles one browser-safe file reaching for Node. The compiler, not a regular expression,
  // must refuse it.
  const probeDir = join(ROOT, "test", ".core-probe");
  afterAll(() => rmSync(probeDir, { recursive: true, force: true }));

  it("a browser-safe file that imports node:fs or uses process fails the type-check", async () => {
    mkdirSync(probeDir, { recursive: true });
    writeFileSync(join(probeDir, "probe.ts"), 'import { readFileSync } from "node:fs";\nexport const read = readFileSync;\nexport const pid = process.pid;\n');
    writeFileSync(
      join(probeDir, "tsconfig.json"),
      JSON.stringify({ extends: "../../tsconfig.core.json", compilerOptions: { noEmit: true, composite: false, rootDir: "." }, include: ["probe.ts"] }),
    );
    const diagnostics = await tsc(compilers["TypeScript 5.9"], join(probeDir, "tsconfig.json"));
    expect(diagnostics).toContain("probe.ts(1,");
    expect(diagnostics).toMatch(/Cannot find module 'node:fs'/);
    expect(diagnostics).toMatch(/Cannot find name 'process'/);
  });
});
