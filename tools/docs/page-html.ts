// The docs page's HTML around what Redocly renders (used by tools/build/build.ts, the docs tests and
// tools/bench/docs.ts):
//   renderWithRedoc(document)    Redocly build-docs of the document from tools/docs/page-document.ts
//   bundleConsole()              the "Try it" consoles (src/docs-console/), the simulator core
//                                included, as one script for the page (esbuild)
//   finishPage(html, script)     the page as written: Redoc's remote badge logo replaced, the
//                                console script added, and a Content-Security-Policy that allows
//                                exactly the page's own scripts by their SHA-256 hash
import { createHash } from "node:crypto";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

export const CONSOLE_ENTRY = join(root, "src", "docs-console", "index.ts");

/**
 * Redoc's page for a document (Redocly build-docs, self-contained, with redocly.yaml's options and
 * the page template), before finishPage. `documentForPage` is what docsDocument returned.
 */
export async function renderWithRedoc(documentForPage: unknown): Promise<string> {
  const { execFile } = await import("node:child_process");
  const { mkdtemp, readFile, rm, writeFile } = await import("node:fs/promises");
  const { tmpdir } = await import("node:os");
  const { promisify } = await import("node:util");
  const tmp = await mkdtemp(join(tmpdir(), "dms-docs-"));
  try {
    const input = join(tmp, "openapi.json");
    const output = join(tmp, "index.html");
    await writeFile(input, JSON.stringify(documentForPage, null, 2));
    const redocly = join(root, "node_modules", "@redocly", "cli", "bin", "cli.js");
    const args = ["build-docs", input, "-o", output, "--inlineBundle", "--config", join(root, "redocly.yaml"), "--lint-config", "off"];
    await promisify(execFile)(process.execPath, [redocly, ...args], { cwd: root });
    return await readFile(output, "utf8");
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/** The console script (src/docs-console/index.ts with the simulator core), minified, for an inline <script>. */
export async function bundleConsole(): Promise<string> {
  const { build } = await import("esbuild");
  const result = await build({
    entryPoints: [CONSOLE_ENTRY],
    bundle: true,
    platform: "browser",
    format: "iife",
    target: "es2022",
    minify: true,
    legalComments: "none",
    charset: "utf8",
    write: false,
    logLevel: "silent",
  });
  const code = result.outputFiles[0]!.text;
  if (/<\/script|<!--/i.test(code)) throw new Error("the console bundle contains </script or <!--, which would end the inline script early");
  return code;
}

// Redoc 3 loads its "API docs by Redocly" logo from this CDN on the client. An empty inline SVG
// takes its place (the badge is hidden by the template's style), so the page asks for nothing.
const REMOTE_LOGO = /https:\/\/cdn\.redoc\.ly\/[\w./-]+\.svg/g;
const EMPTY_SVG = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E";

// The inline scripts Redoc's page has, recognised by their start: the color-mode snippet and the
// module that hydrates the page. Any other inline script (one a description smuggled in) fails the build.
const KNOWN_SCRIPTS: { name: string; test: (text: string, attributes: string) => boolean }[] = [
  { name: "color mode", test: (text) => text.startsWith('try{var m=localStorage.getItem("redoc.colorMode")') },
  {
    name: "Redoc",
    test: (text) => /hydrate\(__redoc_definition, __redoc_options/.test(text) && /@license MIT\s*\n\* \(c\) Copyright \d+ Redocly LLC/.test(text),
  },
  { name: "Try it consoles", test: (_text, attributes) => /\bdata-try-it\b/.test(attributes) },
];

/** The SHA-256 source expression of a script's text, for script-src. */
export function scriptHash(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

/**
 * The page as written: the remote logo replaced, the console script (if any) added before
 * </body>, and the template's `script-src 'none'` replaced by the hashes of exactly the page's
 * own inline scripts. Throws on an inline script it does not know. `html` is Redoc's page;
 * `consoleScript` comes from bundleConsole(), and undefined builds the page without consoles.
 */
export function finishPage(html: string, consoleScript: string | undefined): string {
  // Redoc probes `Function(...)` to decide whether its search index may run in a worker; the
  // policy allows neither eval nor workers, so the probe fails (caught, search stays in the page)
  // but Chromium reports a violation. Failing it without calling Function gives the same answer quietly.
  let page = html.replace(REMOTE_LOGO, EMPTY_SVG).replace(/\._factory\?\?=Function\(/g, '._factory??=(()=>{throw new EvalError("no eval in the docs page")})(');
  if (consoleScript !== undefined) {
    const at = page.lastIndexOf("</body>");
    if (at < 0) throw new Error("the page has no </body>");
    page = `${page.slice(0, at)}<script type="module" data-try-it>${consoleScript}</script>\n${page.slice(at)}`;
  }
  const hashes: string[] = [];
  for (const m of page.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script>/gi)) {
    const [, attributes = "", text = ""] = m;
    if (/\ssrc=/i.test(attributes)) throw new Error("the page loads a script by URL; it must stay self-contained");
    const known = KNOWN_SCRIPTS.find((k) => k.test(text, attributes));
    if (!known) throw new Error(`an inline script the docs page does not know: ${JSON.stringify(text.slice(0, 80))}`);
    hashes.push(scriptHash(text));
  }
  const policy = /(<meta http-equiv="Content-Security-Policy" content="[^"]*)script-src 'none'/;
  if (!policy.test(page)) throw new Error("the template's Content-Security-Policy has no `script-src 'none'` to fill in");
  return page.replace(policy, (_, before) => `${before}script-src ${hashes.join(" ")}`);
}
