// `npm run release:action`: the build of dms that the GitHub Action (action.yml) runs, and the
// release commit that carries it. An Action used at a tag gets this repository's files and nothing
// else (no dist/, no node_modules, no install), so what it runs must be here and whole: one file,
// action/dms.js, bundled by esbuild from src/ (a clean build: no dist/ output is reused), with the
// runtime dependency (openapi-fetch) inside and Node's own modules outside. Beside it,
// action/dms.json stamps the package version it was built for and the file's SHA-256; the Action
// refuses to run a file whose stamp is not its package.json version, or whose bytes are not the
// stamped ones.
//
//   node tools/release/action-build.ts [--no-commit] [--out DIR]
// --no-commit builds without committing (the tests build into a temporary checkout with --out).
// Without it the script refuses a working tree with changes to tracked files, builds, and commits the two files as
// "Release <version>: the Action's dms build".
// Exit codes: 0 built (and committed); 1 the build or the commit failed; 2 usage error.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { build, type Plugin } from "esbuild";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** Where the Action finds its build, relative to the action's checkout (action.yml reads the same paths). */
export const ACTION_BUILD = "action/dms.js";
export const ACTION_STAMP = "action/dms.json";

export interface ActionStamp {
  /** The package.json version the build belongs to. */
  version: string;
  /** The SHA-256 of action/dms.js, hex. */
  sha256: string;
}

const SDK = "@modelcontextprotocol/sdk";

/**
 * The MCP SDK is an optional peer that `dms mcp` loads on use; the Action never serves MCP. Bundled,
 * it would triple the file; left as an import, esbuild hoists it to the top of the one file and
 * every command would fail to load without it. So each SDK module becomes a module that fails when
 * `dms mcp` loads it, as a missing package does: dms mcp then says how to install the SDK.
 */
const sdkAbsent: Plugin = {
  name: "sdk-absent",
  setup(context) {
    context.onResolve({ filter: /^@modelcontextprotocol\/sdk(\/|$)/ }, (args) => ({ path: args.path, namespace: "sdk-absent" }));
    context.onLoad({ filter: /.*/, namespace: "sdk-absent" }, (args) => ({
      // CommonJS, so that any name imported from it is allowed; it throws when first evaluated.
      contents: `module.exports = (() => { throw Object.assign(new Error(${JSON.stringify(`Cannot find package '${args.path}': the Action's build of dms has no ${SDK}`)}), { code: "ERR_MODULE_NOT_FOUND" }); })();`,
      loader: "js",
    }));
  },
};

/** The version in package.json. */
export async function packageVersion(): Promise<string> {
  const { version } = JSON.parse(await readFile(join(root, "package.json"), "utf8")) as { version: string };
  return version;
}

/** Builds action/dms.js and action/dms.json under `outDir` (the checkout by default); answers the stamp. */
export async function buildActionDms(outDir: string = root, version?: string): Promise<ActionStamp> {
  const stampVersion = version ?? (await packageVersion());
  const outfile = join(outDir, ACTION_BUILD);
  await mkdir(join(outDir, "action"), { recursive: true });
  await build({
    // Paths in the file's comments are relative to the checkout, so the build is the same from any directory.
    absWorkingDir: root,
    entryPoints: [join(root, "src/cli/main.ts")],
    outfile,
    bundle: true,
    // Dynamic imports (each command's module) are inlined: one file, no chunks to find.
    splitting: false,
    platform: "node",
    format: "esm",
    // The runners' Node (node24 for composite steps today; node20 still on older images).
    target: "node20",
    plugins: [sdkAbsent],
    // `dms --version` answers the version built from: the bundle has no package.json beside it.
    define: { DMS_BUILD_VERSION: JSON.stringify(stampVersion) },
    banner: { js: `// dms ${stampVersion}, built for the GitHub Action by tools/release/action-build.ts. Do not edit.` },
    legalComments: "eof",
    logLevel: "warning",
  });
  const bytes = await readFile(outfile);
  const stamp: ActionStamp = { version: stampVersion, sha256: createHash("sha256").update(bytes).digest("hex") };
  await writeFile(join(outDir, ACTION_STAMP), `${JSON.stringify(stamp, null, 2)}\n`);
  return stamp;
}

function git(args: string[]): string {
  return execFileSync("git", args, { cwd: root, encoding: "utf8" });
}

if (import.meta.main) {
  let values: { "no-commit"?: boolean; out?: string };
  try {
    ({ values } = parseArgs({ options: { "no-commit": { type: "boolean" }, out: { type: "string" } } }));
  } catch (error) {
    console.error(`release:action: ${(error as Error).message}`);
    process.exit(2);
  }
  const commit = values["no-commit"] !== true;
  if (commit && values.out !== undefined) {
    console.error("release:action: --out builds elsewhere than the checkout; give --no-commit with it");
    process.exit(2);
  }
  // Changes to tracked files only: the release commit takes the two build files by name, nothing else.
  if (commit && git(["status", "--porcelain", "--untracked-files=no"]).trim() !== "") {
    console.error("release:action: the working tree has changes; commit the release (version and CHANGELOG) first, then build");
    process.exit(1);
  }
  const outDir = values.out === undefined ? root : resolve(values.out);
  const stamp = await buildActionDms(outDir);
  console.log(`release:action: built ${join(outDir, ACTION_BUILD)} for version ${stamp.version} (sha256 ${stamp.sha256})`);
  if (commit) {
    git(["add", "--", ACTION_BUILD, ACTION_STAMP]);
    git(["commit", "-m", `Release ${stamp.version}: the Action's dms build`, "--", ACTION_BUILD, ACTION_STAMP]);
    console.log(`release:action: committed; tag it (git tag v${stamp.version}) and move the major tag the Action is used by`);
  }
}
