// Type-checking a project with this repository's compilers, for the tests that check code a user
// writes (samples, consumers of the packed package, the type tests).
import { join } from "node:path";
import { ROOT } from "./document.js";
import { run } from "./run.js";

/** TypeScript 5.9, the compiler of the build. */
export const TSC = join(ROOT, "node_modules/typescript/bin/tsc");
/** TypeScript 7 (the native compiler), which consumers may use for the published .d.ts files. */
export const TSC7 = join(ROOT, "node_modules/typescript7/bin/tsc");

export interface TypeCheckOptions {
  /** The compiler's bin (default TSC). */
  tsc?: string;
  /** Where tsc runs, which a relative project path is resolved against (default the repository root). */
  cwd?: string;
  /** More arguments after `-p <project>`, such as `--pretty false` for diagnostics a test matches. */
  args?: string[];
}

/** Runs tsc on a project: "" when it compiles, else what tsc printed (its diagnostics). */
export async function typeCheck(project: string, { tsc = TSC, cwd = ROOT, args = [] }: TypeCheckOptions = {}): Promise<string> {
  try {
    await run(process.execPath, [tsc, "-p", project, ...args], { cwd, maxBuffer: 1 << 24 });
    return "";
  } catch (error) {
    const { stdout = "", stderr = "", message } = error as { stdout?: string; stderr?: string; message: string };
    return `${stdout}${stderr}` || message;
  }
}
