// The core runs where fetch runs: bundled by esbuild for the browser it resolves nothing from Node
// (the Node entry, which has startSimulator, does not bundle that way: the check can fail), and the
// bundle works. A browser bundler picks the core through the package's "browser" condition, and
// the entry's type declarations need nothing from @types/node (a browser project has none).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { browserBundle } from "../../support/browser-bundle.js";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT } from "../../support/document.js";
import { typeCheck } from "../../support/tsc.js";

const work = mkdtempSync(join(tmpdir(), "dms-core-bundle-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function bundle(entry: string, outfile?: string) {
  return browserBundle({ entry: join(ROOT, entry) }, outfile ? { outfile } : {});
}

describe("the simulator core in a browser bundle", () => {
  it("src/simulator/core/index.ts bundles for platform browser with no node: module among its inputs", async () => {
    // esbuild rejects on any error, so reaching the next line means it bundled.
    const result = await bundle("src/simulator/core/index.ts");
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((i) => i.includes("src/simulator/core/simulator.ts"))).toBe(true);
    expect(inputs.filter((i) => i.startsWith("node:") || i.includes("/node/"))).toEqual([]);
    for (const input of Object.values(result.metafile.inputs)) {
      for (const imported of input.imports) expect(imported.path, "an import of the core").not.toMatch(/^node:/);
    }
  });

  it("the Node entry (startSimulator) does not: the check above can fail", async () => {
    const error = await bundle("src/simulator/node/index.ts").then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(String(error)).toMatch(/node:/);
  });

  it("the bundle runs: createSimulator().fetch answers with seed data", async () => {
    const outfile = join(work, "core.mjs");
    await bundle("src/simulator/core/index.ts", outfile);
    const { createSimulator, SEED_IDS } = await import(pathToFileURL(outfile).href);
    const sim = createSimulator();
    const response = await sim.fetch(`https://api.example.test/v2/deployments/${SEED_IDS.deployment_id}`, { headers: { "X-Api-Key": "k" } });
    expect(response.status).toBe(200);
    expect((await response.json()).id).toBe(SEED_IDS.deployment_id);
  });

  it("package.json sends browser bundlers to the core and Node to the entry with startSimulator", () => {
    const exported = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).exports["./simulator"];
    expect(exported.browser.default).toBe("./dist/simulator/core/index.js");
    expect(exported.default).toBe("./dist/simulator/node/index.js");
  });
});

describe("the simulator's type declarations (dist/)", () => {
  it("type-check in a browser project: no @types/node, skipLibCheck off", async () => {
    const dir = mkdtempSync(join(work, "types-"));
    const entry = (name: string) => JSON.stringify(join(ROOT, "dist/simulator", name));
    writeFileSync(
      join(dir, "app.ts"),
      `import { createSimulator, SEED_IDS, StateFileError } from ${entry("node/index.js")};
import { createSimulator as fromCore } from ${entry("core/index.js")};
const sim = createSimulator({ stepSeconds: 1, now: () => 0 });
export const answer: Promise<Response> = sim.fetch(\`https://api.example.test/v2/deployments/\${SEED_IDS.deployment_id}\`);
export const same: typeof sim.fetch = fromCore().fetch;
export const isStateFileError = (e: unknown): boolean => e instanceof StateFileError;
`,
    );
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          module: "esnext",
          moduleResolution: "bundler",
          target: "es2022",
          lib: ["es2022", "dom"],
          types: [],
          skipLibCheck: false,
        },
        files: ["app.ts"],
      }),
    );
    expect(await typeCheck(join(dir, "tsconfig.json"))).toBe("");
  });
});
