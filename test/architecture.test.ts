// The code map of docs/architecture.md against the tree: every folder of src/ has its row and every
// row its folder, and the rows that may not import Node (no `node:` in "may import") are exactly the
// browser-safe project, tsconfig.core.json, which the compiler checks with no Node types. The line
// between browser-safe code and Node is held by the compiler (test/check/typecheck.test.ts proves a
// browser-safe file that imports node:fs fails); this test keeps the page telling the truth about it.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./support/document.js";

interface Row {
  folder: string; // "src/client/", or "src/" for the files directly in src/
  files: boolean; // the "`src/` (files)" row
  mayImport: string[];
}

/** The rows of the "Code map" table: | `folder` | what | may import |. */
function readCodeMap(markdown: string): Row[] {
  const start = markdown.indexOf("## Code map");
  const section = markdown.slice(start, markdown.indexOf("\n## ", start + 5));
  return [...section.matchAll(/^\| `(src\/[^`]*)`( \(files\))? \| [^\n]*? \| ([^|\n]+) \|$/gm)].map(([, folder, files, mayImport]) => ({
    folder: folder!,
    files: Boolean(files),
    mayImport: mayImport!
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
  }));
}

/** The folders below src/ that hold a source file directly, as "src/a/b/". */
function foldersWithSources(dir: string): string[] {
  const entries = readdirSync(dir);
  const here = entries.some((name) => /\.(ts|tsx|mts)$/.test(name) && statSync(join(dir, name)).isFile()) ? [`${relative(ROOT, dir)}/`] : [];
  return [...here, ...entries.filter((name) => statSync(join(dir, name)).isDirectory()).flatMap((name) => foldersWithSources(join(dir, name)))];
}

const rows = readCodeMap(readFileSync(join(ROOT, "docs", "architecture.md"), "utf8"));
const folderRows = rows.filter((row) => !row.files);
/** The row a folder belongs to: the longest row folder it is inside. */
const rowOf = (folder: string) => folderRows.filter((row) => folder.startsWith(row.folder)).sort((a, b) => b.folder.length - a.folder.length)[0];

describe("docs/architecture.md's code map", () => {
  it("has a row for every folder of src/ and a folder for every row", () => {
    const folders = foldersWithSources(join(ROOT, "src"));
    const unmapped = folders.filter((folder) => (folder === "src/" ? !rows.some((row) => row.files) : !rowOf(folder)));
    expect(unmapped, "folders of src/ with no row in the code map").toEqual([]);
    const missing = folderRows.filter((row) => !folders.some((folder) => folder.startsWith(row.folder))).map((row) => row.folder);
    expect(missing, "rows of the code map with no folder in src/").toEqual([]);
    expect(rows.length).toBeGreaterThanOrEqual(10);
  });

  it("the rows that may not import Node are exactly the browser-safe project (tsconfig.core.json)", () => {
    // tsconfig.core.json is JSON with comments.
    const text = readFileSync(join(ROOT, "tsconfig.core.json"), "utf8").replace(/^\s*\/\/.*$/gm, "");
    const include: string[] = JSON.parse(text).include;
    const browserSafe = rows.filter((row) => !row.mayImport.includes("node:"));
    const expected = browserSafe.flatMap((row) => (row.files ? ["src/index.ts", "src/msw.ts"] : [row.folder.replace(/\/$/, "")])).sort();
    expect([...include].sort()).toEqual(expected);
    // and the Node project leaves out exactly those.
    const node = JSON.parse(readFileSync(join(ROOT, "tsconfig.node.json"), "utf8").replace(/^\s*\/\/.*$/gm, ""));
    expect([...node.exclude].sort()).toEqual(expected);
  });

  it("the files directly in src/ are the ones its row names", () => {
    const direct = readdirSync(join(ROOT, "src")).filter((name) => /\.(ts|tsx)$/.test(name));
    expect(direct.sort()).toEqual(["index.ts", "msw.ts"]);
  });
});
