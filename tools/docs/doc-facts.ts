// Sizes and counts the docs state about the package, measured instead of remembered. A docs page
// marks each such figure: <!-- fact:pack.size -->1.1 MB<!-- /fact -->. This script measures them
// with `npm pack --dry-run` and writes them into every marked place; test/check/docs/pack-content.test.ts
// measures the same way and fails when a page states another figure.
//   node tools/docs/doc-facts.ts           rewrite the marked figures in README.md and docs/
//   node tools/docs/doc-facts.ts --check   print what differs and exit 1, without writing
// Compile first (npm run build:ts): the dry run lists dist/ as it is.
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const MARKED = /<!-- fact:([\w.]+) -->(.*?)<!-- \/fact -->/g;

/** Bytes as a reader takes them in: two significant digits, so a small change moves no figure. */
function bytes(n: number): string {
  const [unit, size] = n >= 1e6 ? ["MB", n / 1e6] : ["kB", n / 1e3];
  return `${Number(size.toPrecision(2))} ${unit}`;
}

/** A count to two significant digits ("about 250"). */
function count(n: number): string {
  return String(Number(n.toPrecision(2)));
}

/** One entry of `npm pack --dry-run --json`. */
export interface PackEntry {
  size: number;
  unpackedSize: number;
  entryCount: number;
  files: { path: string; size: number }[];
}

export type FactName = "pack.size" | "pack.unpacked" | "pack.files" | "schemas.unpacked" | "schemas.files";

/** Every figure the docs may mark, from one `npm pack --dry-run --json` entry. */
export function factsFromPack(pack: PackEntry): Record<FactName, string> {
  const validators = pack.files.filter((f) => f.path.startsWith("generated/schemas/"));
  return {
    "pack.size": bytes(pack.size),
    "pack.unpacked": bytes(pack.unpackedSize),
    "pack.files": count(pack.entryCount),
    "schemas.unpacked": bytes(validators.reduce((sum, f) => sum + f.size, 0)),
    "schemas.files": count(validators.length),
  };
}

/** The pages that may mark facts. */
export function factPages(): string[] {
  return [
    "README.md",
    ...readdirSync(join(ROOT, "docs"))
      .filter((n) => n.endsWith(".md"))
      .map((n) => join("docs", n)),
  ];
}

/** Each marked figure of a page: { name, stated }. */
export function markedFacts(markdown: string): { name: string; stated: string }[] {
  return [...markdown.matchAll(MARKED)].map((m) => ({ name: m[1]!, stated: m[2]! }));
}

/** The page with every marked figure replaced by its measured value; an unknown name throws. */
export function withFacts(markdown: string, facts: Record<string, string>): string {
  return markdown.replace(MARKED, (_, name: string) => {
    if (!(name in facts)) throw new Error(`unknown fact "${name}" (known: ${Object.keys(facts).join(", ")})`);
    return `<!-- fact:${name} -->${facts[name]}<!-- /fact -->`;
  });
}

export function measurePack(): PackEntry {
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const stdout = execFileSync(npm, ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: ROOT, maxBuffer: 1 << 24, encoding: "utf8" });
  return JSON.parse(stdout.slice(stdout.indexOf("[")))[0];
}

if (import.meta.main) {
  const facts = factsFromPack(measurePack());
  const check = process.argv.includes("--check");
  let differs = 0;
  for (const page of factPages()) {
    const path = join(ROOT, page);
    const before = readFileSync(path, "utf8");
    const after = withFacts(before, facts);
    if (after === before) continue;
    differs++;
    console.log(`${page}: ${check ? "states other figures than measured" : "updated"}`);
    if (!check) writeFileSync(path, after);
  }
  console.log(
    Object.entries(facts)
      .map(([name, value]) => `${name} = ${value}`)
      .join("\n"),
  );
  if (check && differs > 0) process.exit(1);
}
