// What a browser bundler makes of some code: esbuild with platform "browser", bundling everything,
// as a consumer's Vite or esbuild build would. The tests that ask "does this run in a browser, and
// what does it cost" share these settings, so they ask it of the same bundler in the same way.
import { type BuildOptions, build, type Metafile } from "esbuild";

/** The code to bundle: an entry file, or text standing for one (resolved from `resolveDir`). */
export type BundleInput = { entry: string; absWorkingDir?: string } | { contents: string; resolveDir: string };

/** The bundle's code (empty when it was written to `outfile`) and what esbuild read to make it. */
export interface BrowserBundle {
  text: string;
  metafile: Metafile;
}

/**
 * Bundles for the browser (ES2022, ESM unless `format` says otherwise); rejects with esbuild's
 * BuildFailure when the code does not bundle. Written to `outfile` when one is given.
 */
export async function browserBundle(input: BundleInput, options: Pick<BuildOptions, "format" | "minify" | "outfile"> = {}): Promise<BrowserBundle> {
  const source: BuildOptions =
    "entry" in input
      ? { entryPoints: [input.entry], ...(input.absWorkingDir ? { absWorkingDir: input.absWorkingDir } : {}) }
      : { stdin: { contents: input.contents, resolveDir: input.resolveDir, loader: "ts", sourcefile: "entry.ts" } };
  const result = await build({
    ...source,
    bundle: true,
    platform: "browser",
    target: "es2022",
    format: options.format ?? "esm",
    minify: options.minify ?? false,
    metafile: true,
    logLevel: "silent",
    ...(options.outfile ? { outfile: options.outfile } : { write: false }),
  });
  return { text: result.outputFiles?.[0]?.text ?? "", metafile: result.metafile };
}
