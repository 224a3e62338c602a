// CHANGELOG.md keeps up with the releases: an entry for the package's version and for every release
// whose bundle is kept in api/releases/, and, while the version is not yet released, its API list is
// exactly what `npm run api:diff` finds against the last release.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/document.js";
import { run } from "../support/run.js";

const changelog = readFileSync(join(ROOT, "CHANGELOG.md"), "utf8");
const version: string = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version;
const releases = readdirSync(join(ROOT, "api", "releases"))
  .filter((n) => /^\d+\.\d+\.\d+\.json$/.test(n))
  .map((n) => n.slice(0, -5));

/** The text of the entry `## <version>`, up to the next entry. */
function entry(v: string): string | undefined {
  const match = new RegExp(`^## ${v.replace(/\./g, "\\.")}\\b[^\\n]*\\n([\\s\\S]*?)(?=^## |(?![\\s\\S]))`, "m").exec(changelog);
  return match?.[1];
}

describe("CHANGELOG.md", () => {
  it("has an entry for the package's version and for every kept release", () => {
    for (const v of [version, ...releases]) expect(entry(v), `no "## ${v}" entry in CHANGELOG.md`).toBeDefined();
  });

  it.skipIf(existsSync(join(ROOT, "api", "releases", `${version}.json`)))(`lists in the ${version} entry the API changes npm run api:diff finds`, async () => {
    const text = entry(version)!;
    const start = text.indexOf("<!-- api:diff -->");
    const end = text.indexOf("<!-- /api:diff -->");
    expect(start, "the entry has no <!-- api:diff --> ... <!-- /api:diff --> markers").toBeGreaterThanOrEqual(0);
    const listed = text.slice(start + "<!-- api:diff -->".length, end).trim();
    const { stdout } = await run(process.execPath, ["tools/release/api-diff.ts", "--format", "markdown"], { cwd: ROOT }).catch((error) => error);
    expect(listed, "CHANGELOG.md is behind the document: run npm run api:diff -- --write-changelog").toBe(String(stdout).trim());
  });
});
