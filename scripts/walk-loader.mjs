// Loads src/shared/walk.ts, the project's one module for walking the OpenAPI document, into a
// build or release script without a compiled dist/: esbuild strips the types in memory (walk.ts
// imports nothing, so the result runs as it is). A script therefore never reads a stale dist/.
import { readFile } from "node:fs/promises";
import { transform } from "esbuild";

const source = new URL("../src/shared/walk.ts", import.meta.url);

/** @returns {Promise<typeof import("../src/shared/walk.js")>} */
export async function loadWalk() {
  const { code } = await transform(await readFile(source, "utf8"), { loader: "ts", format: "esm", target: "node20" });
  return import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`);
}
