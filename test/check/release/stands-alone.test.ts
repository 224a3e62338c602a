// The repository stands alone: what the code relies on is written down inside it (docs/decisions.md,
// the README), so no tracked file may send the reader to documents a clone does not have. And a
// fresh `npm ci` asks nothing of the reader: every dependency's install script is approved or
// denied in package.json's allowScripts.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PROBLEM_TYPES, FIELD_ERROR_CODES } from "../../../generated/constants.js";
import { ROOT } from "../../support/document.js";
import { run } from "../../support/run.js";

// Spelled in pieces so that this file does not match itself.
const OUTSIDE_REFERENCES = [
  ["DESIGN", "\\.md"],
  // The steering folder beside the clone, not src/shared/ (imported as "../shared/x.js").
  ["\\.\\./", "shared($|[^/a-z]|/(interface|hooks))"],
  ["deployment-management-", "service\\.md"],
  ["the ", "brief"],
].map((parts) => parts.join(""));

describe("the repository stands alone", () => {
  it("no tracked file cites a document outside the repository", async () => {
    const args = ["grep", "-n", "-I", "-E", ...OUTSIDE_REFERENCES.flatMap((p) => ["-e", p]), "--", ".", ":!package-lock.json"];
    const hits = await run("git", args, { cwd: ROOT }).then(
      ({ stdout }) => stdout.trim(),
      (error) => (error.code === 1 ? "" : Promise.reject(error)), // git grep exits 1 when nothing matches
    );
    expect(hits, "say it in the repository's own words (docs/decisions.md) instead").toBe("");
  });

  it("docs/decisions.md names every problem type and field error code of the document", () => {
    const decisions = readFileSync(join(ROOT, "docs", "decisions.md"), "utf8");
    for (const { type } of Object.values(PROBLEM_TYPES)) expect(decisions).toContain(`\`${type}\``);
    for (const code of FIELD_ERROR_CODES) expect(decisions).toContain(`\`${code}\``);
  });

  it("npm ci runs no unreviewed install script (allowScripts covers them all)", async () => {
    const { stdout } = await run("npm", ["install-scripts", "ls"], { cwd: ROOT });
    expect(stdout).toContain("No packages with unreviewed install scripts.");
  });
});
