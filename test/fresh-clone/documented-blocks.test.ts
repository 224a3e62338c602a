// Every fenced shell block of README.md, CONTRIBUTING.md and docs/*.md is either run as written by
// the fresh-clone test or listed with the reason it cannot be (test/fresh-clone/documented-commands.ts),
// and every tool is named so that npx cannot reach another package. Cheap, so it runs in npm test.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { allBlocks, BLOCKS, entryOf, scriptOf } from "./documented-commands.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const blocks = allBlocks(ROOT);
const devDependencies = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).devDependencies as Record<string, string>;

describe("documented shell blocks", () => {
  it("finds the blocks (the scan itself works)", () => {
    expect(blocks.length).toBeGreaterThan(25);
    expect(blocks.map((b) => b.page)).toEqual(expect.arrayContaining(["README.md", "docs/mock.md", "docs/workflows.md"]));
  });

  it("every block is run by the fresh-clone test or listed with its reason", () => {
    const unlisted = blocks.filter((block) => !entryOf(block)).map((b) => `${b.page} block ${b.index + 1}: ${b.text.split("\n")[0]}`);
    expect(unlisted).toEqual([]);
  });

  it("every entry names a block that is still there", () => {
    const stale = BLOCKS.filter((entry) => !blocks.some((block) => entryOf(block) === entry)).map((e) => `${e.page}: ${e.starts}`);
    expect(stale).toEqual([]);
  });

  it("each run block becomes a script with free ports and no documented port left", () => {
    const ports = { mock: 41010, simulator: 41011, mcp: 41012, docs: 48080 };
    for (const block of blocks) {
      const entry = entryOf(block);
      if (!entry || !("run" in entry)) continue;
      const script = scriptOf(block, entry, ports);
      expect(script, `${block.page} block ${block.index + 1}`).not.toMatch(/\b(4010|4011|4012|8080)\b/);
    }
  });

  it("npx names each tool by its package and the version the project pins: never the placeholder `redocly`", () => {
    const text = blocks.map((b) => b.text).join("\n");
    expect(text).not.toMatch(/npx redocly\b/);
    for (const match of text.matchAll(/npx (@[\w-]+\/[\w-]+)@([\d.]+)/g)) {
      const [, name, version] = match;
      expect(devDependencies[name!], `${name} is a devDependency`).toBeDefined();
      expect(devDependencies[name!]!.replace(/^[\^~]/, ""), `${name}'s pinned version`).toBe(version);
    }
  });
});
