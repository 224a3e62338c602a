// The docs page's own parts, around what Redocly renders (used by scripts/build.mjs, the docs tests
// and scripts/bench-docs.mjs):
//   docsDocument(bundle, walk)   the copy of the bundle Redoc renders: code samples, the guide
//                                section at the top, no duplicate sidebar entry, and every
//                                description and summary made inert (sanitizeMarkdown)
//   bundleConsole()              the "Try it" consoles (src/docs-console/), the simulator core
//                                included, as one script for the page (esbuild)
//   finishPage(html, script)     the page as written: Redoc's remote badge logo replaced, the
//                                console script added, and a Content-Security-Policy that allows
//                                exactly the page's own scripts by their SHA-256 hash
import { createHash } from "node:crypto";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { withCodeSamples } from "./code-samples.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

export const CONSOLE_ENTRY = join(root, "src", "docs-console", "index.ts");

/** The guide section's heading; Redoc links it as #/section/<slug>. */
export const GUIDE_HEADING = "Deploy and follow a revision";

// Link destinations a description may keep: web and mail links, in-page anchors, relative paths
// (any number of ../ first: the page sits in generated/docs/ and links files of the package).
// Anything else (javascript:, data:, vbscript:, an escaped or entity-encoded scheme) becomes "#".
const SAFE_DESTINATION =
  /^(?:https?:\/\/[^\s<>()\\]*|mailto:[^\s<>()\\]*|#[^\s<>()\\]*|\/[^\s<>()\\]*|(?:\.\.\/)*\.{0,2}\/?[\w-][\w.-]*(?:[/#?][^\s<>()\\]*)?)(?=[\s)]|$)/;

const escapeHtml = (text) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * Markdown with no HTML of its own: every `<` outside code becomes `&lt;`, a code span or fenced
 * block that holds `<`, `>` or `&` is written as escaped <code>/<pre> (the only tags the result
 * carries, without attributes), and link destinations outside an allow-list become "#". A
 * misread code span therefore still yields text, never a tag.
 * @param {string} text
 */
export function sanitizeMarkdown(text) {
  const out = [];
  // Fenced blocks (``` or ~~~ at the start of a line) and inline code spans (a backtick run closed
  // by a run of the same length, within one paragraph).
  const code = /(^[ \t]*(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:\n[ \t]*\2[ \t]*(?=\n|$)|$(?![\s\S])))|((?<!`)(`+)(?!`)((?:(?!\n[ \t]*\n)[\s\S])*?)(?<!`)\4(?!`))/gm;
  let last = 0;
  for (const m of text.matchAll(code)) {
    out.push(prose(text.slice(last, m.index)));
    const [whole, fenced, , , , spanBody] = m;
    if (!/[<>&]/.test(whole)) out.push(whole);
    else if (fenced) {
      const body = fenced.replace(/^[^\n]*\n/, "").replace(/\n?[ \t]*(`{3,}|~{3,})[ \t]*$/, "");
      out.push(`<pre><code>${escapeHtml(body)}</code></pre>`);
    } else out.push(`<code>${escapeHtml(spanBody.trim())}</code>`);
    last = m.index + whole.length;
  }
  out.push(prose(text.slice(last)));
  return out.join("");
}

function prose(text) {
  return (
    text
      .replace(/</g, "&lt;")
      // Inline links and images: [text](destination ...)
      .replace(/\]\(\s*([^\s)]*)/g, (whole, destination) => (SAFE_DESTINATION.test(destination) ? whole : "](#"))
      // Reference definitions: [label]: destination
      .replace(/^( {0,3}\[[^\]\n]+\]:[ \t]*)(\S*)/gm, (whole, lead, destination) => (SAFE_DESTINATION.test(destination) ? whole : `${lead}#`))
  );
}

// Keys whose strings are rendered as markdown or text by Redoc; example values are shown as JSON
// text (escaped by Redoc), so `value` and `example` are not walked.
const TEXT_KEYS = new Set(["description", "summary", "title"]);
const DATA_KEYS = new Set(["example", "value", "x-codeSamples", "enum", "const", "default", "examples"]);

/** A copy of the document whose descriptions, summaries and titles hold no HTML (sanitizeMarkdown). */
export function sanitizeDocument(document) {
  const walk = (value, key) => {
    if (Array.isArray(value)) return value.map((item) => walk(item, undefined));
    if (value && typeof value === "object") {
      const copy = {};
      for (const [k, v] of Object.entries(value)) {
        // "examples" is data inside a schema (an array), but a map of Example objects elsewhere.
        if (DATA_KEYS.has(k) && !(k === "examples" && v && typeof v === "object" && !Array.isArray(v))) copy[k] = v;
        else if (typeof v === "string" && TEXT_KEYS.has(k) && key !== "properties") copy[k] = sanitizeMarkdown(v);
        else copy[k] = walk(v, k);
      }
      return copy;
    }
    return value;
  };
  return walk(document, undefined);
}

/**
 * The guide at the top of the docs: a PATCH, its new latest_revision_id, "Get a revision" until a
 * terminal state, the client and `dms` doing the same, and a console (src/docs-console) that walks it.
 */
function guideMarkdown(document, walk, deploymentId) {
  const baseUrl = String(document.servers?.[0]?.url ?? "").replace(/\/+$/, "");
  const ops = Object.fromEntries(walk.listOperations(document).map((e) => [e.operationId, e]));
  const link = (operationId) => {
    const entry = ops[operationId];
    return `[${entry.operation.summary}](#/${tagSlug(entry.operation.tags[0])}/${operationId.toLowerCase()})`;
  };
  const terminal = document.components.schemas.RevisionStatus["x-terminal-states"].map((s) => `\`${s}\``).join(", ");
  return `## ${GUIDE_HEADING}
What a deploy script does: change what runs, then follow the revision the change created until it
ends.

1. ${link("patchDeployment")}: \`PATCH /v2/deployments/{deployment_id}\` with a change that creates a
   revision (\`source_revision_config\`, \`secrets\`, \`secret_references\` or \`revision_source\`).
2. Read \`latest_revision_id\` from the answer: it names the new revision at once.
3. ${link("getRevision")}: \`GET /v2/deployments/{deployment_id}/revisions/{revision_id}\` every few
   seconds until its \`status\` is terminal (${terminal}).

The client does all three in one call (\`deployRevision\`), or the last step alone (\`waitForRevision\`):

\`\`\`ts
import { createDeploymentsClient, deployRevision, waitForRevision } from "deployment-management-api";

const client = createDeploymentsClient({ baseUrl: "${baseUrl}", apiKey: "my-api-key" });
const { deployment, revision } = await deployRevision(client, "${deploymentId}", {
  source_revision_config: { repo_ref: "release/2.5" },
});
console.log(deployment.latest_revision_id, revision.status); // ... DEPLOYED
// Or, after a PATCH of your own: await waitForRevision(client, deploymentId, revisionId)
\`\`\`

In CI, \`dms deploy\` patches and waits, and exits 0 only when the revision is \`DEPLOYED\`:

\`\`\`sh
export DMS_BASE_URL=${baseUrl} DMS_API_KEY=my-api-key
npx dms deploy ${deploymentId} --ref release/2.5
\`\`\`

The same flow, and a rollback, are Arazzo workflows in the package
([arazzo/deployments.arazzo.yaml](../../arazzo/deployments.arazzo.yaml): \`deployRef\`,
\`deployImage\`, \`rollback\`, \`waitForRevision\`) that Redocly Respect runs against any server:
\`npx redocly respect node_modules/deployment-management-api/arazzo/deployments.arazzo.yaml --server deployments=${baseUrl}\`.
[docs/workflows.md](../../docs/workflows.md) in the repository explains each criterion.

The console below walks the same steps against the simulator inside this page.
`;
}

/** Redoc's slug of a tag name: "OAuth providers" is oauth-providers. */
export function tagSlug(name) {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

/**
 * The document Redoc renders: the bundle with code samples, the guide section first among the
 * description's sections, the description's "Revisions" section renamed (the Revisions tag has that
 * name in the sidebar), and every description made inert. The input is not changed.
 */
export function docsDocument(bundle, walk) {
  const document = withCodeSamples(bundle, walk);
  const deploymentId =
    walk
      .listOperations(document)
      .find((e) => e.operationId === "patchDeployment")
      ?.operation["x-codeSamples"]?.[0]?.source.match(/deployments\/([\w-]+)/)?.[1] ?? "<deployment_id>";
  const description = String(document.info.description ?? "");
  const firstSection = description.search(/^## /m);
  const guideText = guideMarkdown(document, walk, deploymentId);
  const tags = new Set((document.tags ?? []).map((t) => t.name.toLowerCase()));
  const renamed = (
    firstSection < 0 ? `${description}\n\n${guideText}` : `${description.slice(0, firstSection)}${guideText}\n${description.slice(firstSection)}`
  ).replace(/^## (.+)$/gm, (line, heading) => (tags.has(heading.trim().toLowerCase()) ? `## How ${heading.trim().toLowerCase()} work` : line));
  document.info.description = renamed;
  // The PATCH and "Get a revision" point at each other and at the guide.
  const entries = Object.fromEntries(walk.listOperations(document).map((e) => [e.operationId, e.operation]));
  const href = (operationId) => `#/${tagSlug(entries[operationId].tags[0])}/${operationId.toLowerCase()}`;
  const guide = `[${GUIDE_HEADING}](#/section/${tagSlug(GUIDE_HEADING)})`;
  if (entries.patchDeployment && entries.getRevision) {
    entries.patchDeployment.description = `${String(entries.patchDeployment.description ?? "").trimEnd()}\n\nThen follow the new revision: [${entries.getRevision.summary}](${href("getRevision")}) with the answer's \`latest_revision_id\`, until its \`status\` is terminal (${guide}).`;
    entries.getRevision.description = `${String(entries.getRevision.description ?? "").trimEnd()}\n\nAfter [${entries.patchDeployment.summary}](${href("patchDeployment")}), poll the new \`latest_revision_id\` here until its \`status\` is terminal (${guide}).`;
  }
  return sanitizeDocument(document);
}

/**
 * Redoc's page for a document (Redocly build-docs, self-contained, with redocly.yaml's options and
 * the page template), before finishPage.
 * @param {unknown} documentForPage what docsDocument returned
 * @returns {Promise<string>}
 */
export async function renderWithRedoc(documentForPage) {
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
export async function bundleConsole() {
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
  const code = result.outputFiles[0].text;
  if (/<\/script|<!--/i.test(code)) throw new Error("the console bundle contains </script or <!--, which would end the inline script early");
  return code;
}

// Redoc 3 loads its "API docs by Redocly" logo from this CDN on the client. An empty inline SVG
// takes its place (the badge is hidden by the template's style), so the page asks for nothing.
const REMOTE_LOGO = /https:\/\/cdn\.redoc\.ly\/[\w./-]+\.svg/g;
const EMPTY_SVG = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E";

// The inline scripts Redoc's page has, recognised by their start: the color-mode snippet and the
// module that hydrates the page. Any other inline script (one a description smuggled in) fails the build.
const KNOWN_SCRIPTS = [
  { name: "color mode", test: (text) => text.startsWith('try{var m=localStorage.getItem("redoc.colorMode")') },
  {
    name: "Redoc",
    test: (text) => /hydrate\(__redoc_definition, __redoc_options/.test(text) && /@license MIT\s*\n\* \(c\) Copyright \d+ Redocly LLC/.test(text),
  },
  { name: "Try it consoles", test: (_text, attributes) => /\bdata-try-it\b/.test(attributes) },
];

/** The SHA-256 source expression of a script's text, for script-src. */
export function scriptHash(text) {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

/**
 * The page as written: the remote logo replaced, the console script (if any) added before
 * </body>, and the template's `script-src 'none'` replaced by the hashes of exactly the page's
 * own inline scripts. Throws on an inline script it does not know.
 * @param {string} html Redoc's page
 * @param {string | undefined} consoleScript from bundleConsole(); undefined builds the page without consoles
 */
export function finishPage(html, consoleScript) {
  // Redoc probes `Function(...)` to decide whether its search index may run in a worker; the
  // policy allows neither eval nor workers, so the probe fails (caught, search stays in the page)
  // but Chromium reports a violation. Failing it without calling Function gives the same answer quietly.
  let page = html.replace(REMOTE_LOGO, EMPTY_SVG).replace(/\._factory\?\?=Function\(/g, '._factory??=(()=>{throw new EvalError("no eval in the docs page")})(');
  if (consoleScript !== undefined) {
    const at = page.lastIndexOf("</body>");
    if (at < 0) throw new Error("the page has no </body>");
    page = `${page.slice(0, at)}<script type="module" data-try-it>${consoleScript}</script>\n${page.slice(at)}`;
  }
  const hashes = [];
  for (const m of page.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script>/gi)) {
    const [, attributes = "", text] = m;
    if (/\ssrc=/i.test(attributes)) throw new Error("the page loads a script by URL; it must stay self-contained");
    const known = KNOWN_SCRIPTS.find((k) => k.test(text, attributes));
    if (!known) throw new Error(`an inline script the docs page does not know: ${JSON.stringify(text.slice(0, 80))}`);
    hashes.push(scriptHash(text));
  }
  const policy = /(<meta http-equiv="Content-Security-Policy" content="[^"]*)script-src 'none'/;
  if (!policy.test(page)) throw new Error("the template's Content-Security-Policy has no `script-src 'none'` to fill in");
  return page.replace(policy, (_, before) => `${before}script-src ${hashes.join(" ")}`);
}
