// Both linters report zero errors and zero warnings, and our own Spectral rules do fire on a
// document that breaks them (so a silent ruleset cannot pass for a clean one).
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/document.js";
import { run } from "../support/run.js";

describe("lint", () => {
  it("Redocly and Spectral report zero problems", async () => {
    let stdout: string;
    try {
      ({ stdout } = await run(process.execPath, ["tools/check/lint.ts", "--json"], { cwd: ROOT }));
    } catch (error: any) {
      stdout = error.stdout;
    }
    const report = JSON.parse(stdout);
    expect(report.redocly.files).toContain("arazzo/deployments.arazzo.yaml");
    expect(report.redocly.problems).toEqual([]);
    expect(report.spectral.problems).toEqual([]);
    expect([report.redocly.errors, report.redocly.warnings, report.spectral.errors, report.spectral.warnings]).toEqual([0, 0, 0, 0]);
  });

  it("our Spectral rules catch a document that breaks them", async () => {
    const dir = await mkdtemp(join(tmpdir(), "dms-lint-"));
    const doc = JSON.parse(await readFile(join(ROOT, "generated/openapi.json"), "utf8"));
    const listeners = doc.paths["/v2/listeners"].get;
    listeners.parameters = listeners.parameters.filter((p: any) => !p.$ref.endsWith("/Offset"));
    delete listeners.responses["401"];
    doc.paths["/v3/things"] = doc.paths["/v2/listeners"];
    doc.components.parameters.Limit.schema.maximum = 1000;
    await writeFile(join(dir, "openapi.json"), JSON.stringify(doc));
    const ruleset = (await readFile(join(ROOT, ".spectral.yaml"), "utf8")).replace("./node_modules", join(ROOT, "node_modules"));
    await writeFile(join(dir, ".spectral.yaml"), ruleset);
    let stdout = "";
    try {
      await run(
        process.execPath,
        [
          join(ROOT, "node_modules/@stoplight/spectral-cli/dist/index.js"),
          "lint",
          join(dir, "openapi.json"),
          "-r",
          join(dir, ".spectral.yaml"),
          "-f",
          "json",
          "--quiet",
        ],
        { cwd: dir, maxBuffer: 1 << 26 },
      );
    } catch (error: any) {
      stdout = error.stdout;
    }
    const codes = new Set(JSON.parse(stdout.slice(stdout.indexOf("["))).map((r: any) => r.code));
    for (const rule of ["dms-paths-versioned", "dms-operation-401", "dms-limit-bounds", "dms-paged-list-params"]) expect(codes).toContain(rule);
  });
});
