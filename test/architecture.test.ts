// The code map of docs/architecture.md, enforced: every import of every file under src/ is one its
// folder may make, and the entries that run in browsers (the client, the simulator core, MSW, query,
// schemas) reach nothing from Node through anything they import. The rules are read from the page,
// so the page and the code cannot drift apart.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./support/document.js";

interface Rule {
  folder: string; // "src/client/" or "src/" for the files directly in src/
  mayImport: string[];
}

/** The rows of the "Code map" table: | `folder` | what | may import |. */
function readCodeMap(markdown: string): Rule[] {
  const section = markdown.slice(markdown.indexOf("## Code map"), markdown.indexOf("\n## ", markdown.indexOf("## Code map") + 5));
  const rules: Rule[] = [];
  for (const [, folder, mayImport] of section.matchAll(/^\| `(src\/[^`]*)`(?: \(files\))? \| [^\n]*? \| ([^|\n]+) \|$/gm)) {
    rules.push({
      folder: folder!,
      mayImport: mayImport!
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    });
  }
  return rules;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mts)$/.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

interface Import {
  specifier: string;
  typeOnly: boolean;
}

function importsOf(source: string): Import[] {
  const found: Import[] = [];
  const statement = /^\s*(import|export)\s+(type\s+)?(?:[^"';]*?\sfrom\s+)?["']([^"']+)["']/gm;
  for (const m of source.matchAll(statement)) found.push({ specifier: m[3]!, typeOnly: Boolean(m[2]) });
  for (const m of source.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g)) found.push({ specifier: m[1]!, typeOnly: false });
  return found;
}

const NODE_BUILTINS = new Set(builtinModules);
const isNodeBuiltin = (specifier: string) => specifier.startsWith("node:") || NODE_BUILTINS.has(specifier.split("/")[0]!);
const packageName = (specifier: string) =>
  specifier
    .split("/")
    .slice(0, specifier.startsWith("@") ? 2 : 1)
    .join("/");

// Files the package does not ship (package.json "files" leaves them out) are development tools.
const PACKAGE = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
const unshipped: RegExp[] = (PACKAGE.files as string[])
  .filter((f) => f.startsWith("!dist/"))
  .map((f) => new RegExp(`^src/${f.slice("!dist/".length).replaceAll(".", "\\.").replaceAll("*", ".*")}$`.replace("\\..*$", "\\.ts$")));
const isUnshipped = (file: string) => unshipped.some((re) => re.test(file));

/** The package's own subpath, seen from inside: what a browser bundler resolves it to. */
function selfReference(specifier: string): string | undefined {
  const entry = PACKAGE.exports?.[`.${specifier.slice("deployment-management-api".length)}`];
  const target = entry?.browser?.default ?? entry?.default ?? entry?.types;
  return typeof target === "string" ? join(ROOT, target.replace(/^\.\/dist\//, "src/").replace(/\.(d\.ts|js)$/, ".ts")) : undefined;
}

function resolveSource(fromFile: string, specifier: string): string | undefined {
  if (specifier.startsWith("deployment-management-api")) return selfReference(specifier);
  if (!specifier.startsWith(".")) return undefined;
  const target = resolve(dirname(fromFile), specifier);
  for (const candidate of [target, target.replace(/\.js$/, ".ts"), target.replace(/\.js$/, ".tsx"), target.replace(/\.mjs$/, ".mts")]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {}
  }
  return target;
}

const rules = readCodeMap(readFileSync(join(ROOT, "docs", "architecture.md"), "utf8"));
const ruleOf = (file: string): Rule | undefined =>
  rules.filter((r) => (r.folder === "src/" ? dirname(file) === "src" : file.startsWith(r.folder))).sort((a, b) => b.folder.length - a.folder.length)[0];

/** What an import reaches, in the table's words: a folder of src/, "generated", "node:", a package name, or "tools". */
function kindOf(fromFile: string, imp: Import): string {
  if (isNodeBuiltin(imp.specifier)) return "node:";
  const target = resolveSource(join(ROOT, fromFile), imp.specifier);
  if (!target) return packageName(imp.specifier);
  const path = relative(ROOT, target).split("\\").join("/");
  if (path.startsWith("generated/")) return "generated";
  if (path.startsWith("src/")) return ruleOf(path)?.folder.replace(/\/$/, "") ?? path;
  return path.split("/")[0]!;
}

function allowed(rule: Rule, kind: string): boolean {
  return rule.mayImport.some((m) => m.replace(/\/$/, "") === kind || (m === "@stoplight" && kind.startsWith("@stoplight/")));
}

const files = sourceFiles(join(ROOT, "src")).map((f) => relative(ROOT, f).split("\\").join("/"));

/** The src/ files a file imports, type-only imports too: a cycle of types still ties modules together. */
function importedFiles(file: string, known: Set<string>): string[] {
  return importsOf(readFileSync(join(ROOT, file), "utf8")).flatMap(({ specifier }) => {
    const target = resolveSource(join(ROOT, file), specifier);
    const path = target && relative(ROOT, target).split("\\").join("/");
    return path && known.has(path) ? [path] : [];
  });
}

/**
 * Every import cycle of a graph, each as the files around it ("a -> b -> a"): a depth-first walk
 * that reports an edge back to a file still on the walk's path. Each back edge is one cycle, so a
 * file in two cycles is reported twice, and a graph without cycles gives [].
 */
function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const cycles: string[] = [];
  const done = new Set<string>();
  const path: string[] = [];
  const onPath = new Set<string>();
  const visit = (file: string) => {
    path.push(file);
    onPath.add(file);
    for (const next of graph.get(file) ?? []) {
      if (onPath.has(next)) cycles.push([...path.slice(path.indexOf(next)), next].join(" -> "));
      else if (!done.has(next)) visit(next);
    }
    path.pop();
    onPath.delete(file);
    done.add(file);
  };
  for (const file of [...graph.keys()].sort()) if (!done.has(file)) visit(file);
  return cycles;
}

describe("docs/architecture.md's code map", () => {
  it("names every folder of src/", () => {
    const folders = new Set(files.map((f) => ruleOf(f)?.folder));
    expect(folders.has(undefined), `files in no folder of the map: ${files.filter((f) => !ruleOf(f)).join(", ")}`).toBe(false);
    expect(rules.length).toBeGreaterThanOrEqual(8);
  });

  it("every import under src/ is one its folder may make", () => {
    const broken: string[] = [];
    for (const file of files) {
      if (isUnshipped(file)) continue;
      const rule = ruleOf(file)!;
      const source = readFileSync(join(ROOT, file), "utf8");
      for (const imp of importsOf(source)) {
        const kind = kindOf(file, imp);
        if (kind === rule.folder.replace(/\/$/, "") || allowed(rule, kind)) continue;
        broken.push(`${file} imports "${imp.specifier}" (${kind}); ${rule.folder} may import ${rule.mayImport.join(", ")}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("the entries that run in browsers reach nothing from Node, directly or through what they import", () => {
    const entries = ["src/index.ts", "src/msw.ts", "src/simulator/core/index.ts", "src/query/index.ts", "src/schemas/index.ts"].filter((f) =>
      files.includes(f),
    );
    const reached: string[] = [];
    const seen = new Set<string>();
    const walk = (file: string, trail: string[]) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const imp of importsOf(readFileSync(join(ROOT, file), "utf8"))) {
        if (imp.typeOnly) continue;
        if (isNodeBuiltin(imp.specifier)) reached.push(`${[...trail, file].join(" -> ")} imports ${imp.specifier}`);
        const target = resolveSource(join(ROOT, file), imp.specifier);
        const path = target && relative(ROOT, target).split("\\").join("/");
        if (path?.startsWith("src/") && files.includes(path)) walk(path, [...trail, file]);
      }
    };
    for (const entry of entries) walk(entry, []);
    expect(entries.length).toBeGreaterThanOrEqual(3);
    expect(reached).toEqual([]);
  });

  it("no file under src/ imports itself through a chain of imports", () => {
    const known = new Set(files);
    const graph = new Map(files.map((file) => [file, importedFiles(file, known)]));
    expect(findCycles(graph)).toEqual([]);
  });

  it("reports a cycle's files, and nothing for a graph without one", () => {
    const graph = new Map([
      ["src/client/redirects.ts", ["src/client/retry.ts"]],
      ["src/client/retry.ts", ["src/client/sleep.ts", "src/client/redirects.ts"]],
      ["src/client/sleep.ts", []],
    ]);
    expect(findCycles(graph)).toEqual(["src/client/redirects.ts -> src/client/retry.ts -> src/client/redirects.ts"]);
    graph.set("src/client/redirects.ts", []);
    expect(findCycles(graph)).toEqual([]);
  });

  it("catches a core file that imports node: and src/ code that imports tools/", () => {
    const core = rules.find((r) => r.folder === "src/simulator/core/")!;
    expect(allowed(core, kindOf("src/simulator/core/store/store.ts", { specifier: "node:fs", typeOnly: false }))).toBe(false);
    expect(allowed(core, kindOf("src/simulator/core/store/store.ts", { specifier: "../../../tools/build/build.ts", typeOnly: false }))).toBe(false);
    const cli = rules.find((r) => r.folder === "src/cli/")!;
    expect(allowed(cli, kindOf("src/cli/main.ts", { specifier: "../../tools/check/lint.ts", typeOnly: false }))).toBe(false);
    expect(allowed(cli, kindOf("src/cli/main.ts", { specifier: "node:fs", typeOnly: false }))).toBe(true);
  });
});
