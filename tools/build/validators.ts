// Compiles the request validators the simulator needs (every operation's parameters and request
// body) to JavaScript at build time, with ajv's standalone mode, into generated/validators.js and
// its .d.ts. The simulator then creates no function from text at start: it runs under a
// Content-Security-Policy without 'unsafe-eval', and it starts without compiling anything.
//
// The ajv options are those of the run-time validator the tests use (test/support/openapi-validator.ts), so a compiled
// validator gives the verdicts and error objects a runtime-compiled one gives. Standalone code
// refers to ajv's runtime helpers and to ajv-formats' format functions with require(); esbuild
// bundles those into the module, so it imports nothing and loads the same in Node, in a browser
// and in any bundler.
//
// Usage: node tools/build/validators.ts [--out DIR]   (tools/build/build.ts runs it as a step)
import { readFile, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020, type AnySchema } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import standaloneModule from "ajv/dist/standalone/index.js";
import { build } from "esbuild";
import type { OpenApiDocument } from "../../src/shared/walk.ts";
import { validatorSchemas } from "./validator-keys.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
// ajv-formats and ajv's standalone module are CommonJS; their function is also their `default` member.
const addFormats = addFormatsModule.default;
const standaloneCode = standaloneModule.default;

// The same id the simulator gives the document, so "#/components/..." references resolve alike.
export const DOCUMENT_ID = "urn:deployment-management-api:openapi";

/**
 * The options of every validator compiled from the document (the servers' and the schemas entry's).
 * strictNumbers: a number must be finite. JSON carries no NaN or Infinity (the servers' bounds
 * refuse 1e309 before validation), but the schemas entry validates JavaScript values, such as a
 * form's empty number field read as NaN: valid without it, and sent by JSON.stringify as null, it
 * would clear the field on the service.
 */
export const AJV_OPTIONS = { allErrors: true, strict: false, strictNumbers: true, validateFormats: true, code: { source: true, esm: true } } as const;

/** Points internal "#/..." references at the document id, as the simulator's validator does. */
export function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, k === "$ref" && typeof v === "string" && v.startsWith("#/") ? `${DOCUMENT_ID}${v}` : rewriteRefs(v)]),
    );
  }
  return value;
}

/** The standalone ES module text for the document's validators, and their keys in order. */
export async function compileStandalone(document: OpenApiDocument): Promise<{ keys: string[]; code: string }> {
  const schemas = validatorSchemas(document);
  const ajv = new Ajv2020(AJV_OPTIONS);
  addFormats(ajv);
  ajv.addSchema(rewriteRefs(document) as AnySchema, DOCUMENT_ID);
  // Export names must be identifiers; the keys (with ":") map onto them below.
  const keys = [...schemas.keys()];
  const exports: Record<string, string> = {};
  keys.forEach((key, i) => {
    ajv.addSchema(rewriteRefs(schemas.get(key)) as AnySchema, `${DOCUMENT_ID}/validators/${i}`);
    exports[`v${i}`] = `${DOCUMENT_ID}/validators/${i}`;
  });
  return { keys, code: standaloneCode(ajv, exports) };
}

function moduleText(keys: string[]): string {
  const entries = keys.map((key, i) => `  ${JSON.stringify(key)}: v${i},`).join("\n");
  return `import { ${keys.map((_, i) => `v${i}`).join(", ")} } from "./standalone.js";

const validators = Object.freeze({
${entries}
});

export const VALIDATOR_KEYS = Object.freeze(Object.keys(validators));

export function compiledValidator(key) {
  const validate = Object.hasOwn(validators, key) ? validators[key] : undefined;
  if (!validate) throw new Error(\`no compiled validator "\${key}" in generated/validators.js: run npm run build\`);
  return validate;
}
`;
}

function declarationText(keys: string[]): string {
  return `/** One violation, as ajv reports it (the fields of ajv's ErrorObject that ajv fills without \`verbose\`). */
export interface ValidationError {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  params: Record<string, any>;
  propertyName?: string;
  message?: string;
}

/** A request validator compiled at build time: the verdict, and the violations when it is false. */
export interface CompiledValidator {
  (data: unknown): boolean;
  errors?: ValidationError[] | null;
}

/** \`body:<operationId>\` or \`parameter:<operationId>:<in>:<name>\`. */
export type ValidatorKey =
${keys.map((k) => `  | ${JSON.stringify(k)}`).join("\n")};

export declare const VALIDATOR_KEYS: readonly ValidatorKey[];

/** The compiled validator for a key; throws when the build made none for it. */
export declare function compiledValidator(key: ValidatorKey | (string & {})): CompiledValidator;
`;
}

// The header still names the script this build was before it moved to tools/: the generated files
// stay byte for byte what they were, and the name changes with the next change they get anyway.
const HEADER = "// Generated by tools/build/validators.ts from openapi/ with ajv standalone code. Do not edit.\n";

/** Writes validators.js and validators.d.ts for the bundled document at `documentFile` into `outDir`. */
export async function buildValidators(documentFile: string, outDir: string): Promise<string[]> {
  const document = JSON.parse(await readFile(documentFile, "utf8"));
  const { keys, code } = await compileStandalone(document);
  const result = await build({
    stdin: { contents: moduleText(keys), resolveDir: root, sourcefile: "validators.js" },
    plugins: [
      {
        name: "standalone",
        setup(b) {
          b.onResolve({ filter: /^\.\/standalone\.js$/ }, () => ({ path: "standalone", namespace: "standalone" }));
          b.onLoad({ filter: /.*/, namespace: "standalone" }, () => ({ contents: code, loader: "js", resolveDir: root }));
        },
      },
    ],
    bundle: true,
    write: false,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    // ajv's helpers are CommonJS; their `require` must resolve inside the bundle.
    mainFields: ["main"],
    legalComments: "none",
    charset: "utf8",
    logLevel: "silent",
  });
  await writeFile(join(outDir, "validators.js"), HEADER + result.outputFiles[0]!.text);
  await writeFile(join(outDir, "validators.d.ts"), HEADER + declarationText(keys));
  return keys;
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const outDir = resolve((args.includes("--out") ? args[args.indexOf("--out") + 1] : undefined) ?? join(root, "generated"));
  const keys = await buildValidators(join(outDir, "openapi.json"), outDir);
  console.log(`validators: ${keys.length} compiled into ${join(outDir, "validators.js")}`);
}
