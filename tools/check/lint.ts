// Lints the document with Redocly (the split source, and the Arazzo workflows) and Spectral (the bundle: Spectral 6.16
// reports false errors on Path Item $refs in split 3.1 files). Fails on any error or warning.
// Prints one line per linter with its counts; --json prints them as JSON for tests.
import { execFile } from "node:child_process";
import { join, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const run = promisify(execFile);

// Both CLIs exit non-zero when they find problems; the JSON on stdout is what counts.
async function jsonOutput(args: string[]): Promise<string> {
  try {
    const { stdout } = await run(process.execPath, args, { cwd: root, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const { stdout } = error as { stdout?: string };
    if (stdout) return stdout;
    throw error;
  }
}

/** One linter's verdict. */
interface LintReport {
  files?: string[];
  errors: number;
  warnings: number;
  problems: string[];
}

/** The parts of a Redocly JSON report and of a Spectral result this script reads. */
interface RedoclyReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; message: string; location?: { pointer?: string }[] }[];
}
interface SpectralResult {
  code: string;
  message: string;
  severity: number;
  path: (string | number)[];
}

// The split OpenAPI source (the api of redocly.yaml) and the Arazzo workflows, in one run.
const REDOCLY_FILES = ["deployments@v2", "arazzo/deployments.arazzo.yaml"];

async function redocly(): Promise<LintReport> {
  const out = await jsonOutput([join(root, "node_modules/@redocly/cli/bin/cli.js"), "lint", ...REDOCLY_FILES, "--format", "json"]);
  // One JSON report per file, one after the other.
  const reports: RedoclyReport[] = JSON.parse(`[${out.slice(out.indexOf("{")).replace(/\}\s*\{(?=\s*"totals")/g, "},{")}]`);
  const problems = reports.flatMap((report) => report.problems);
  return {
    files: REDOCLY_FILES,
    errors: reports.reduce((sum, report) => sum + report.totals.errors, 0),
    warnings: reports.reduce((sum, report) => sum + report.totals.warnings, 0),
    problems: problems.map((p) => `${p.ruleId}: ${p.message} (${p.location?.[0]?.pointer ?? ""})`),
  };
}

async function spectral(): Promise<LintReport> {
  const out = await jsonOutput([
    join(root, "node_modules/@stoplight/spectral-cli/dist/index.js"),
    "lint",
    "generated/openapi.json",
    "--ruleset",
    ".spectral.yaml",
    "--format",
    "json",
    "--quiet",
  ]);
  const results: SpectralResult[] = JSON.parse(out.slice(out.indexOf("[")) || "[]");
  return {
    errors: results.filter((r) => r.severity === 0).length,
    warnings: results.filter((r) => r.severity === 1).length,
    problems: results.filter((r) => r.severity <= 2).map((r) => `${r.code}: ${r.message} (${r.path.join(".")})`),
  };
}

const [r, s] = await Promise.all([redocly(), spectral()]);
const report = { redocly: r, spectral: s };
if (process.argv.includes("--json")) {
  console.log(JSON.stringify(report));
} else {
  for (const [name, res] of Object.entries(report)) {
    console.log(`${name}: ${res.errors} errors, ${res.warnings} warnings`);
    for (const p of res.problems) console.log(`  ${p}`);
  }
}
process.exit(r.errors + r.warnings + r.problems.length + s.errors + s.warnings + s.problems.length === 0 ? 0 : 1);
