// The pages a reader reads: the front page, the contributors' page and every page under docs/.
// Their ```ts samples are type-checked and run (test/check/docs/samples.test.ts) and type-checked against
// the installed package (test/check/pack.test.ts).
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./document.js";

export const PAGES: readonly string[] = [
  "README.md",
  "CONTRIBUTING.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((f) => `docs/${f}`),
];
