// Runs the real compilers over the type tests in test/types (and the whole project with tsc 5.9):
// TypeScript 5.9, which openapi-typescript needs, and TypeScript 7 (the native compiler), which
// consumers may use. A @ts-expect-error that is not an error fails the check too.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./support/document.js";
import { typeCheck } from "./support/tsc.js";

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
});
