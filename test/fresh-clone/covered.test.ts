// Every npm script, and every command README.md, CONTRIBUTING.md and docs/ tell a reader to run, is
// either proven by the fresh-clone test (npm run test:fresh-clone, in .ci/run) or listed in
// test/fresh-clone/commands.ts with the reason it is not. Cheap, so it runs in npm test.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { documentedCommands, proofOf, SCRIPTS } from "./commands.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const pages = ["README.md", "CONTRIBUTING.md", ...readdirSync(join(ROOT, "docs")).map((name) => join("docs", name))].filter((p) => p.endsWith(".md"));

describe("commands a reader is told to run", () => {
  it("lists every npm script of package.json, and no script that is gone", () => {
    const scripts = Object.keys(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts);
    expect(Object.keys(SCRIPTS).sort()).toEqual(scripts.sort());
  });

  it.each(pages)("every command in %s is proven or has a reason", (page) => {
    const unproven = documentedCommands(readFileSync(join(ROOT, page), "utf8")).filter((command) => !proofOf(command));
    expect(unproven).toEqual([]);
  });

  it("finds the README's commands (the scan itself works)", () => {
    const found = documentedCommands(readFileSync(join(ROOT, "README.md"), "utf8"));
    expect(found).toEqual(expect.arrayContaining(["npm start", "npm test", "npm run simulate", "npm run dms"]));
  });

  it("the fresh-clone test is what .ci/run runs", () => {
    expect(readFileSync(join(ROOT, ".ci", "run"), "utf8")).toContain("npm run test:fresh-clone");
  });
});
