// Every ```ts block of README.md is type-checked, so the samples cannot rot. Each block becomes a
// module under test/.readme-samples/ (gitignored) that imports the package by its name:
// "deployment-management-api" maps to src/index.ts and "deployment-management-api/simulator" to
// src/simulator/index.ts, and "./x" imports resolve from the repository root, as in the README.
// A block whose info string says no-check (```ts no-check) is skipped.
import { execFile } from "node:child_process";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, test } from "vitest";
import { ROOT } from "../support/document.js";

const run = promisify(execFile);
const TSC = join(ROOT, "node_modules", "typescript", "bin", "tsc");
const SAMPLES = join(ROOT, "test", ".readme-samples");

interface Sample {
  line: number;
  info: string;
  code: string;
}

function extractTypeScriptBlocks(markdown: string): Sample[] {
  const samples: Sample[] = [];
  const fence = /^```(ts|typescript)\b([^\n]*)\n([\s\S]*?)^```[ \t]*$/gm;
  for (const match of markdown.matchAll(fence)) {
    const line = markdown.slice(0, match.index).split("\n").length;
    samples.push({ line, info: `${match[1]}${match[2]}`.trim(), code: match[3]! });
  }
  return samples;
}

const skipped = (sample: Sample) => /\bno-?check\b/.test(sample.info);

// The samples are written as if they sat at the repository root; their files sit two levels down.
function asSampleModule(sample: Sample): string {
  const code = sample.code.replace(/(from\s+|import\s*\(\s*)(["'])\.\//g, "$1$2../../");
  return `// README.md line ${sample.line}\n${code}\nexport {};\n`;
}

// A wrong call that must not compile: if the package name stopped resolving to the real types
// (to `any`, say), this directive would be unused and tsc would fail, so a broken setup cannot pass.
const CANARY = `import { createDeploymentsClient } from "deployment-management-api";
// @ts-expect-error: apiKey is required
createDeploymentsClient({ baseUrl: "http://127.0.0.1:4010" });
export {};
`;

const TSCONFIG = {
  extends: "../../tsconfig.json",
  compilerOptions: {
    noEmit: true,
    // Samples are demonstrations: a declared-but-unused value is fine there.
    noUnusedLocals: false,
    // The package's own declarations are checked by the typecheck suite; here only the samples count.
    skipLibCheck: true,
    paths: {
      "deployment-management-api": ["../../src/index.ts"],
      "deployment-management-api/simulator": ["../../src/simulator/index.ts"],
    },
  },
  include: ["*.ts"],
};

async function typeCheck(project: string): Promise<string> {
  try {
    await run(process.execPath, [TSC, "-p", project, "--pretty", "false"], { cwd: ROOT, maxBuffer: 1 << 24 });
    return "";
  } catch (error: any) {
    return String(error.stdout || error.stderr || error.message);
  }
}

describe("README.md code samples", () => {
  let samples: Sample[];

  beforeAll(async () => {
    samples = extractTypeScriptBlocks(await readFile(join(ROOT, "README.md"), "utf8"));
  });

  test("the README has TypeScript samples to check", () => {
    expect(samples.filter((s) => !skipped(s)).length).toBeGreaterThan(0);
  });

  test("every ```ts sample compiles against the package's own types", async () => {
    await rm(SAMPLES, { recursive: true, force: true });
    await mkdir(SAMPLES, { recursive: true });
    await writeFile(join(SAMPLES, "tsconfig.json"), JSON.stringify(TSCONFIG, null, 2));
    await writeFile(join(SAMPLES, "canary.ts"), CANARY);
    for (const sample of samples.filter((s) => !skipped(s))) {
      await writeFile(join(SAMPLES, `readme-line-${sample.line}.ts`), asSampleModule(sample));
    }
    // Errors name the file, readme-line-<N>.ts, N being the line of the block's fence in README.md.
    expect(await typeCheck(join(SAMPLES, "tsconfig.json"))).toBe("");
  });

  test("a sample that does not compile fails the check", async () => {
    const broken = join(SAMPLES, "broken");
    await mkdir(broken, { recursive: true });
    await writeFile(join(broken, "tsconfig.json"), JSON.stringify({ ...TSCONFIG, extends: "../../../tsconfig.json", compilerOptions: { ...TSCONFIG.compilerOptions, paths: { "deployment-management-api": ["../../../src/index.ts"] } } }, null, 2));
    const [sample] = extractTypeScriptBlocks(
      '```ts\nimport { createDeploymentsClient } from "deployment-management-api";\ncreateDeploymentsClient({ baseUrl: 4010, apiKey: "k" });\n```\n',
    );
    await writeFile(join(broken, "sample.ts"), asSampleModule(sample!));
    expect(await typeCheck(join(broken, "tsconfig.json"))).toMatch(/sample\.ts\(3,\d+\): error TS2322/);
  });
});
