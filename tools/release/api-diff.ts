// `npm run api:diff`: the breaking-change gate. Compares the bundled document (generated/openapi.json)
// with the bundle of the last release (the highest version under api/releases/, a file named after
// the package version it shipped in), lists every change a client can notice, and fails when a
// change can break a client unless both info.version and the package's major version were bumped.
//
// Why not `redocly diff`: in @redocly/cli 2.77 (experimental) it rates a removed path, a removed
// operation, a removed response field, a parameter or body field made required and a response field
// made nullable or optional all as "patch", so it would let every one of them through.
// The rules live in ./compare.ts.
//
//   node tools/release/api-diff.ts [--base FILE] [--revision FILE] [--package-version V] [--format text|json|markdown]
//                                  [--write-changelog]
// --write-changelog puts the markdown list into CHANGELOG.md, in the entry of the package version,
// between the markers <!-- api:diff --> and <!-- /api:diff --> (the words around them stay).
// Exit codes: 0 no breaking change, or breaking changes with both majors bumped; 1 breaking changes
// without the bumps; 2 usage error (unknown flag, unreadable file, no entry or markers to write to).
import { readdir, readFile, writeFile } from "node:fs/promises";
import { basename, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { type Change, compareDocuments } from "./compare.ts";

const root = fileURLToPath(new URL("../..", import.meta.url));
const releasesDir = join(root, "api", "releases");
const CHANGELOG_START = "<!-- api:diff -->";
const CHANGELOG_END = "<!-- /api:diff -->";

function fail(message: string): never {
  console.error(`api:diff: ${message}`);
  process.exit(2);
}

function parseFlags() {
  try {
    return parseArgs({
      options: {
        base: { type: "string" },
        revision: { type: "string" },
        "package-version": { type: "string" },
        format: { type: "string", default: "text" },
        "write-changelog": { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    }).values;
  } catch (error) {
    return fail(`${(error as Error).message} (see --help)`);
  }
}
const values = parseFlags();
if (values.help) {
  console.log(
    "usage: node tools/release/api-diff.ts [--base api/releases/X.Y.Z.json] [--revision generated/openapi.json] [--package-version V] [--format text|json|markdown] [--write-changelog]",
  );
  process.exit(0);
}
if (!["text", "json", "markdown"].includes(values.format)) fail(`--format must be text, json or markdown, not ${JSON.stringify(values.format)}`);

const parseVersion = (v: unknown): number[] | undefined => /^(\d+)\.(\d+)\.(\d+)/.exec(String(v))?.slice(1).map(Number);
const compareVersions = (a: string, b: string): number => {
  const [x = [], y = []] = [parseVersion(a), parseVersion(b)];
  return x[0]! - y[0]! || x[1]! - y[1]! || x[2]! - y[2]!;
};

/** The release bundle with the highest version under api/releases/. */
async function latestRelease(): Promise<string> {
  const names = (await readdir(releasesDir).catch(() => [])).filter((n) => /^\d+\.\d+\.\d+\.json$/.test(n));
  if (names.length === 0) fail(`no release bundle in ${relative(root, releasesDir)}/ (a file named <version>.json)`);
  return join(
    releasesDir,
    `${names
      .map((n) => n.slice(0, -5))
      .sort(compareVersions)
      .at(-1)}.json`,
  );
}

// The documents and package.json are JSON read by shape.
async function readJson(file: string, what: string): Promise<any> {
  try {
    return JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    return fail(`cannot read ${what} ${file}: ${(error as Error).message}`);
  }
}

const baseFile = resolve(values.base ?? (await latestRelease()));
const revisionFile = resolve(values.revision ?? join(root, "generated", "openapi.json"));
const basePackageVersion = basename(baseFile, ".json");
if (!parseVersion(basePackageVersion)) fail(`the base file must be named after the package version it shipped in (e.g. 0.1.0.json), not ${basename(baseFile)}`);
const base = await readJson(baseFile, "base");
const revision = await readJson(revisionFile, "revision");
const packageVersion: string = values["package-version"] ?? (await readJson(join(root, "package.json"), "package.json")).version;

const changes = compareDocuments(base, revision);
const breaking = changes.filter((c) => c.impact === "breaking");
/** The base's and the revision's info.version and package version. */
interface Versions {
  api: { base: string; revision: string };
  package: { base: string; revision: string };
}
const versions: Versions = {
  api: { base: base.info?.version, revision: revision.info?.version },
  package: { base: basePackageVersion, revision: packageVersion },
};
const majorBumped = (v: { base: string; revision: string }): boolean => {
  const [revisionMajor, baseMajor] = [parseVersion(v.revision)?.[0], parseVersion(v.base)?.[0]];
  return revisionMajor !== undefined && baseMajor !== undefined && revisionMajor > baseMajor;
};
const missingBumps: [string, { base: string; revision: string }][] =
  breaking.length === 0
    ? []
    : (
        [
          ["info.version", versions.api],
          ["package.json version", versions.package],
        ] as [string, { base: string; revision: string }][]
      ).filter(([, v]) => !majorBumped(v));
const ok = missingBumps.length === 0;

const rel = (file: string): string => relative(process.cwd(), file) || file;

/**
 * The API part of a changelog entry: breaking, then non-breaking changes, one line per kind of
 * change to the fields of one schema (`ResourceSpec.{cpu, memory_mb}: made nullable`).
 */
function changelogSection(list: Change[], v: Versions): string {
  const group = (items: Change[]): string[] => {
    const groups = new Map<string, { side: Change["side"]; message: string; parent: string; fields: string[]; whole: boolean }>();
    for (const c of items) {
      const dot = c.side === "document" ? -1 : c.where.lastIndexOf(".");
      const parent = dot > 0 ? c.where.slice(0, dot) : c.where;
      const key = `${c.side}|${c.message}|${dot > 0 ? parent : c.where}`;
      const entry = groups.get(key) ?? { side: c.side, message: c.message, parent, fields: [], whole: dot <= 0 };
      if (dot > 0) entry.fields.push(c.where.slice(dot + 1));
      groups.set(key, entry);
    }
    return [...groups.values()].map((g) => {
      const where = g.whole ? g.parent : g.fields.length === 1 ? `${g.parent}.${g.fields[0]}` : `${g.parent}.{${g.fields.join(", ")}}`;
      return `- ${g.side === "document" ? "" : `${g.side}: `}\`${where}\`: ${g.message}`;
    });
  };
  const section = (title: string, items: Change[]): string[] => (items.length ? [`#### ${title}`, "", ...group(items), ""] : []);
  return [
    `API changes from info.version ${v.api.base} (package ${v.package.base}) to ${v.api.revision} (package ${v.package.revision}), listed by \`npm run api:diff\`:`,
    "",
    ...section(
      "Breaking",
      list.filter((c) => c.impact === "breaking"),
    ),
    ...section(
      "Non-breaking",
      list.filter((c) => c.impact !== "breaking"),
    ),
    ...(list.length ? [] : ["No change a client can notice.", ""]),
  ]
    .join("\n")
    .trimEnd();
}
const line = (c: Change): string => `${c.where}: ${c.message}${c.operations.length ? ` (${c.operations.join(", ")})` : ""}`;

if (values["write-changelog"]) {
  const file = join(root, "CHANGELOG.md");
  const text = await readFile(file, "utf8").catch(() => fail("there is no CHANGELOG.md to write to"));
  const heading = new RegExp(`^## ${packageVersion.replace(/\./g, "\\.")}\\b.*$`, "m").exec(text);
  if (!heading) fail(`CHANGELOG.md has no entry "## ${packageVersion}": add one with the markers <!-- api:diff --> and <!-- /api:diff -->`);
  const start = text.indexOf(CHANGELOG_START, heading.index);
  const end = text.indexOf(CHANGELOG_END, start);
  const nextEntry = text.indexOf("\n## ", heading.index + 1);
  if (start < 0 || end < 0 || (nextEntry >= 0 && start > nextEntry))
    fail(`the CHANGELOG.md entry for ${packageVersion} has no ${CHANGELOG_START} ... ${CHANGELOG_END} markers`);
  await writeFile(file, `${text.slice(0, start + CHANGELOG_START.length)}\n${changelogSection(changes, versions)}\n${text.slice(end)}`);
  console.error(`api:diff: wrote the API changes into the ${packageVersion} entry of CHANGELOG.md`);
}

if (values.format === "json") {
  console.log(
    JSON.stringify({ base: rel(baseFile), revision: rel(revisionFile), versions, ok, missingBumps: missingBumps.map(([name]) => name), changes }, null, 2),
  );
} else if (values.format === "markdown") {
  console.log(changelogSection(changes, versions));
} else {
  console.log(`api:diff ${rel(revisionFile)} (info.version ${versions.api.revision}, package ${versions.package.revision})`);
  console.log(`  against ${rel(baseFile)} (info.version ${versions.api.base}, package ${versions.package.base})`);
  const print = (title: string, list: Change[]) => {
    if (list.length === 0) return;
    console.log(`\n${title} (${list.length}):`);
    for (const c of list) console.log(`  ${c.side.padEnd(8)} ${line(c)}`);
  };
  print("Breaking changes", breaking);
  print(
    "Non-breaking changes",
    changes.filter((c) => c.impact !== "breaking"),
  );
  if (changes.length === 0) console.log("\nNo change a client can notice.");
  console.log("");
  if (!ok) {
    for (const [name, v] of missingBumps) console.log(`FAIL: breaking changes need a new major ${name}: ${v.base} -> ${v.revision} is not one.`);
    console.log("Bump info.version in openapi/openapi.yaml and the package version (npm version major), or undo the breaking changes.");
  } else if (breaking.length > 0) {
    console.log(
      `OK: ${breaking.length} breaking changes, released as a new major (info.version ${versions.api.base} -> ${versions.api.revision}, package ${versions.package.base} -> ${versions.package.revision}).`,
    );
  } else {
    console.log(`OK: no breaking change${changes.length ? `; ${changes.length} non-breaking` : ""}.`);
    // Not a failure: additions can wait for the next release's minor bump.
    if (changes.length > 0 && versions.api.base === versions.api.revision)
      console.log(`Note: info.version is still ${versions.api.base}; additions call for a new minor when they are released.`);
  }
}
process.exit(ok ? 0 : 1);
