// Types for scripts/code-samples.mjs, so TypeScript tests can import it.
export interface CodeSample {
  lang: "Shell" | "TypeScript";
  label: "curl" | "TypeScript" | "dms";
  source: string;
}
/** The bundle with `x-codeSamples` on every operation; the input is not changed. */
export declare function withCodeSamples<T>(bundle: T, walk: typeof import("../src/shared/walk.js")): T;
/** `"<path> <parameter>"` to the id the samples use for it, from the document's examples. */
export declare function exampleIds(document: unknown, walk: typeof import("../src/shared/walk.js")): Map<string, string>;
/** A JSON value as a TypeScript literal that evaluates to the same value (`__proto__` stays a member). */
export declare function literal(value: unknown): string;
