// Builds everything under generated/ from openapi/ (after writing the examples Prism answers from
// the simulator's seed, tools/build/seed-examples.ts):
//   openapi.json, openapi.yaml  the bundled document (Redocly bundle, internal $refs kept)
//   schema.d.ts                 openapi-typescript types
//   constants.js, constants.d.ts the enum value lists as runtime constants
//   docs/index.html             Redocly build-docs, self-contained (--inlineBundle)
// A step whose inputs hash the same as last time is skipped (stamps in generated/.stamps.json).
// Flags: --out DIR (write elsewhere, used by the drift test), --force (ignore stamps), --no-docs,
// --check (write nothing: name each step whose inputs changed since its stamp, and exit 1 if any did).
import { createHash } from "node:crypto";
import { execFile } from "node:child_process";
import { mkdir, readFile, readdir, writeFile, rm, mkdtemp } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { stringify } from "yaml";
import type { DocumentNode } from "../../src/shared/walk.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const run = promisify(execFile);
const args = process.argv.slice(2);
const outDir = resolve((args.includes("--out") ? args[args.indexOf("--out") + 1] : undefined) ?? join(root, "generated"));
const force = args.includes("--force");
const withDocs = !args.includes("--no-docs");
const checkOnly = args.includes("--check");
const redocly = join(root, "node_modules", "@redocly", "cli", "bin", "cli.js");

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

// A file is hashed under its name inside the checkout, and an output under its name inside the output
// folder: a build into another folder (--out, the drift test) computes the same stamps as a build of
// generated/, so the drift test can hold the committed stamps to the inputs they were made from.
function nameOf(file: string): string {
  if (file.startsWith(`${outDir}/`)) return `generated/${file.slice(outDir.length + 1)}`;
  return file.slice(root.length + 1);
}

async function hashOf(files: string[]): Promise<string> {
  const h = createHash("sha256");
  for (const f of files)
    h.update(nameOf(f))
      .update("\0")
      .update(await readFile(f))
      .update("\0");
  return h.digest("hex");
}

async function toolVersion(pkg: string): Promise<string> {
  return JSON.parse(await readFile(join(root, "node_modules", pkg, "package.json"), "utf8")).version;
}

// openapi-typescript's published types reach @redocly/openapi-core's, which name packages that are
// not installed (json-schema-to-ts, js-yaml's types): the module is imported by a name the type
// check does not follow, and the two functions the types step calls are typed here.
const OPENAPI_TYPESCRIPT: string = "openapi-typescript";
interface OpenapiTypescript {
  default(schema: URL, options: { defaultNonNullable: boolean; readWriteMarkers: boolean; additionalProperties: boolean }): Promise<unknown>;
  astToString(ast: unknown): string;
}

const stampFile = join(outDir, ".stamps.json");
const stamps: Record<string, string> = !force && existsSync(stampFile) ? JSON.parse(await readFile(stampFile, "utf8")) : {};
const timings: string[] = [];
const stale: string[] = [];

// Runs `build` unless the hash of its inputs matches the stamp and its outputs exist.
async function step(name: string, inputHash: string, outputs: string[], build: () => Promise<void>): Promise<void> {
  const started = performance.now();
  if (stamps[name] === inputHash && outputs.every((o) => existsSync(join(outDir, o)))) {
    timings.push(`${name}: up to date`);
    return;
  }
  if (checkOnly) {
    stale.push(name);
    return;
  }
  await build();
  stamps[name] = inputHash;
  timings.push(`${name}: built in ${Math.round(performance.now() - started)} ms`);
}

await mkdir(join(outDir, "docs"), { recursive: true });
// First, the examples Prism answers are written from the simulator's seed (tools/build/seed-examples.ts),
// so that the bundle below holds them. Only for generated/ itself: a build elsewhere (--out, the
// drift test) leaves openapi/ alone; test/mock/same-seed.test.ts checks the files against the seed.
if (outDir === join(root, "generated") && !checkOnly) {
  const { seedExampleFiles, staleExampleFiles } = await import("./seed-examples.ts");
  const { importCompiled } = await import("./compile-if-stale.ts");
  const started = performance.now();
  const { createSimulator } = await importCompiled<{ createSimulator: Parameters<typeof seedExampleFiles>[0] }>("dist/simulator/core/index.js");
  const stale = await staleExampleFiles(createSimulator);
  if (stale.length > 0) for (const [file, text] of await seedExampleFiles(createSimulator)) if (stale.includes(file)) await writeFile(file, text);
  timings.push(`seed-examples: ${stale.length === 0 ? "up to date" : `${stale.length} written`} in ${Math.round(performance.now() - started)} ms`);
}
const sourceFiles = [...(await listFiles(join(root, "openapi"))), join(root, "redocly.yaml")];
const thisScript = fileURLToPath(import.meta.url);
const bundleHash = (await hashOf([...sourceFiles, thisScript])) + (await toolVersion("@redocly/cli"));

await step("bundle", bundleHash, ["openapi.json", "openapi.yaml"], async () => {
  const tmp = await mkdtemp(join(tmpdir(), "dms-bundle-"));
  try {
    await run(process.execPath, [redocly, "bundle", "deployments@v2", "-o", join(tmp, "openapi.json"), "--lint-config", "off"], { cwd: root });
    const doc = JSON.parse(await readFile(join(tmp, "openapi.json"), "utf8"));
    await writeFile(join(outDir, "openapi.json"), `${JSON.stringify(doc, null, 2)}\n`);
    await writeFile(join(outDir, "openapi.yaml"), stringify(doc, { lineWidth: 0, aliasDuplicateObjects: false }));
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
});

const bundled = join(outDir, "openapi.json");
const docHash = await hashOf([bundled, thisScript]);

await step("types", docHash + (await toolVersion("openapi-typescript")), ["schema.d.ts"], async () => {
  const { default: openapiTS, astToString }: OpenapiTypescript = await import(OPENAPI_TYPESCRIPT);
  const ast = await openapiTS(new URL(`file://${bundled}`), {
    // Fields with a default stay optional: a server may omit them (token_endpoint_auth_method).
    defaultNonNullable: false,
    // `limit`, `offset` etc. keep their declared types; no read/write markers: our patch bodies
    // are separate schemas without read-only fields, and openapi-fetch 0.17's Readable/Writable
    // helpers would turn every response type into a mapped type that editors show poorly.
    readWriteMarkers: false,
    // Open objects (labels, annotations, Kubernetes objects) keep their index signatures.
    additionalProperties: false,
  });
  // The headers name the build's path before it moved to tools/: generated/ stays byte for byte the same.
  const header = "// Generated by tools/build/build.ts from openapi/ with openapi-typescript. Do not edit.\n";
  await writeFile(join(outDir, "schema.d.ts"), header + astToString(ast));
});

await step("constants", docHash, ["constants.js", "constants.d.ts"], async () => {
  const doc = JSON.parse(await readFile(bundled, "utf8"));
  const s: Record<string, DocumentNode> = doc.components.schemas;
  // The document marks the states a revision never leaves with x-terminal-states.
  const terminal = s.RevisionStatus["x-terminal-states"];
  const lists = {
    DEPLOYMENT_STATUSES: s.DeploymentStatus.enum,
    REVISION_STATUSES: s.RevisionStatus.enum,
    TERMINAL_REVISION_STATUSES: terminal,
    // The order a revision moves in when nothing fails (x-progression).
    REVISION_PROGRESSION: s.RevisionStatus["x-progression"],
    // The patch fields that create a revision when present and not null (x-revision-fields).
    REVISION_FIELDS: s.DeploymentPatch["x-revision-fields"],
    SOURCES: s.DeploymentSource.enum,
    REVISION_SOURCES: s.RevisionSource.enum.filter((v: unknown) => v !== null),
    DEPLOYMENT_TYPES: s.DeploymentType.enum,
  };
  const header = "// Generated by tools/build/build.ts from the enums and x- lists of openapi/. Do not edit.\n";
  let js = header;
  let dts = header;
  for (const [name, values] of Object.entries(lists)) {
    js += `export const ${name} = Object.freeze(${JSON.stringify(values)});\n`;
    dts += `export declare const ${name}: readonly ${JSON.stringify(values).replaceAll(",", ", ")};\n`;
  }
  // The kinds of error (x-problem-types on Problem): kind -> { type URI, title, status }, so servers
  // answer and clients branch on the same values.
  const problemTypes: Record<string, { type: string; title: string; status: number }> = Object.fromEntries(
    s.Problem["x-problem-types"].map(({ kind, title, status }: { kind: string; title: string; status: number }) => [
      kind,
      { type: `urn:deployment-management-api:problem:${kind}`, title, status },
    ]),
  );
  js += `export const PROBLEM_TYPES = Object.freeze(${JSON.stringify(problemTypes)});\n`;
  dts += "export declare const PROBLEM_TYPES: {\n";
  for (const [kind, p] of Object.entries(problemTypes)) {
    dts += `  readonly ${JSON.stringify(kind)}: { readonly type: ${JSON.stringify(p.type)}; readonly title: ${JSON.stringify(p.title)}; readonly status: ${p.status} };\n`;
  }
  dts += "};\nexport type ProblemKind = keyof typeof PROBLEM_TYPES;\n";
  const codes = s.ProblemFieldError["x-field-error-codes"];
  js += `export const FIELD_ERROR_CODES = Object.freeze(${JSON.stringify(codes)});\n`;
  dts += `export declare const FIELD_ERROR_CODES: readonly ${JSON.stringify(codes).replaceAll(",", ", ")};\n`;
  dts += "export type FieldErrorCode = (typeof FIELD_ERROR_CODES)[number];\n";
  await writeFile(join(outDir, "constants.js"), js);
  await writeFile(join(outDir, "constants.d.ts"), dts);
});

// validators.js, validators.d.ts: the simulator's request validators as ajv standalone code.
const validatorsScript = join(root, "tools", "build", "validators.ts");
const validatorsTools = (await toolVersion("ajv")) + (await toolVersion("ajv-formats")) + (await toolVersion("esbuild"));
await step(
  "validators",
  docHash + (await hashOf([validatorsScript, join(root, "tools", "build", "validator-keys.ts"), join(root, "src", "shared", "walk.ts")])) + validatorsTools,
  ["validators.js", "validators.d.ts"],
  async () => {
    const { buildValidators } = await import("./validators.ts");
    await buildValidators(bundled, outDir);
  },
);

// operations.js and schemas/: the operation table of the query entry and one validator per schema for the schemas entry.
const entriesScript = join(root, "tools", "build", "entries.ts");
await step(
  "entries",
  docHash + (await hashOf([entriesScript, validatorsScript, join(root, "src", "shared", "walk.ts")])) + validatorsTools,
  ["operations.js", "operations.d.ts", "schemas/index.js", "schemas/index.d.ts"],
  async () => {
    const { buildEntries } = await import("./entries.ts");
    await buildEntries(bundled, outDir);
  },
);

if (withDocs) {
  // Redoc gets a copy of the bundle made for the page (tools/docs/page-document.ts): code samples on
  // every operation (x-codeSamples, tools/docs/code-samples.ts), the guide section first, and descriptions
  // that carry no HTML; the published bundle stays as written. The page then gets the "Try it"
  // consoles (src/docs-console/, bundled with the simulator core) and a policy that runs only the
  // page's own scripts, by hash. The console bundle is made every time (esbuild, a fraction of a
  // second) and its bytes are part of the step's inputs, so any change to what it bundles counts.
  const docsInputs = [
    "redocly.yaml",
    "tools/docs/template.hbs",
    "tools/docs/page-document.ts",
    "tools/docs/page-html.ts",
    "tools/docs/sanitize.ts",
    "tools/docs/code-samples.ts",
    "src/docs-console/code-samples.ts",
    "src/shared/walk.ts",
  ].map((f) => join(root, f));
  const { bundleConsole, finishPage, renderWithRedoc } = await import("../docs/page-html.ts");
  const { docsDocument } = await import("../docs/page-document.ts");
  const consoleScript = await bundleConsole();
  const consoleHash = createHash("sha256").update(consoleScript).digest("hex");
  await step("docs", docHash + (await hashOf(docsInputs)) + consoleHash + (await toolVersion("@redocly/cli")), ["docs/index.html"], async () => {
    const forPage = docsDocument(JSON.parse(await readFile(bundled, "utf8")));
    await writeFile(join(outDir, "docs", "index.html"), finishPage(await renderWithRedoc(forPage), consoleScript));
  });
}

if (checkOnly) {
  if (stale.length > 0) {
    console.error(`generated/ is out of date: ${stale.join(", ")} (its inputs changed since it was built): run npm run build and commit generated/`);
    process.exit(1);
  }
  process.exit(0);
}
await writeFile(stampFile, `${JSON.stringify(stamps, null, 2)}\n`);
if (!args.includes("--quiet")) console.log(timings.join("\n"));
