// What `npm pack` puts in the tarball test/global-setup.ts packed (npm's entry for it lists the files
// a dry run lists): the compiled client and simulator, everything under generated/ a user reads or imports, README and
// LICENSE; none of the sources, tests, tools or the README's screenshot.
import { beforeAll, describe, expect, test } from "vitest";
import { factPages, factsFromPack, markedFacts } from "../../../tools/docs/doc-facts.ts";
import { ROOT } from "../../support/document.js";
import { packEntry, type PackEntry } from "../../support/packed.js";

const MUST_HAVE = [
  "package.json",
  "README.md",
  "LICENSE",
  "dist/index.js",
  "dist/index.d.ts",
  "dist/simulator/node/index.js",
  "dist/simulator/node/cli.js",
  "generated/openapi.json",
  "generated/openapi.yaml",
  "generated/schema.d.ts",
  "generated/constants.js",
  "generated/constants.d.ts",
  "generated/docs/index.html",
];

const MUST_NOT_HAVE = ["test/", "tools/", "openapi/", "src/", "assets/", ".ci/", "readme-parts/", "node_modules/"];

describe("npm pack --dry-run", () => {
  let packed: PackEntry;
  let paths: string[];

  beforeAll(() => {
    // The entry of the tarball test/global-setup.ts packed: its files are the ones the dry run lists.
    packed = packEntry();
    paths = packed.files.map((f) => f.path);
  });

  test("carries the compiled client, generated/ (bundle, types, docs), README and LICENSE", () => {
    expect(paths).toEqual(expect.arrayContaining(MUST_HAVE));
  });

  test("leaves out sources, tests, tools and the README's assets", () => {
    expect(paths.filter((p) => MUST_NOT_HAVE.some((dir) => p.startsWith(dir)))).toEqual([]);
    expect(paths.filter((p) => p.endsWith(".tsbuildinfo") || p.endsWith(".stamps.json"))).toEqual([]);
  });

  test("every export and the bin point at a packed file", async () => {
    const pkg = JSON.parse(await (await import("node:fs/promises")).readFile(`${ROOT}/package.json`, "utf8"));
    const targets = new Set<string>();
    const collect = (value: unknown): void => {
      if (typeof value === "string") targets.add(value.replace(/^\.\//, ""));
      else if (value && typeof value === "object") Object.values(value).forEach(collect);
    };
    collect(pkg.exports);
    collect(pkg.bin);
    expect([...targets].filter((t) => !paths.includes(t))).toEqual([]);
    console.info(`npm pack: ${packed.size} bytes packed, ${packed.unpackedSize} bytes unpacked, ${packed.entryCount} files`);
  });

  test("the sizes and counts the docs state are the ones measured (node tools/docs/doc-facts.ts writes them)", async () => {
    const { readFile } = await import("node:fs/promises");
    const facts = factsFromPack(packed);
    const stated = [];
    for (const page of factPages()) {
      for (const { name, stated: value } of markedFacts(await readFile(`${ROOT}/${page}`, "utf8"))) stated.push({ page, name, value });
    }
    // The pages that give the tarball's size and the validators' share mark them.
    expect(new Set(stated.map((s) => s.name))).toEqual(new Set(Object.keys(facts)));
    expect(stated.filter((s) => s.value !== facts[s.name as keyof typeof facts])).toEqual([]);
  });
});
