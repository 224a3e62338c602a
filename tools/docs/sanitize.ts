// Makes the docs page's text inert: every description, summary and title of the document Redoc
// renders is markdown with no HTML of its own and no link outside an allow-list, so a description
// cannot put a tag or a script in the page (tools/docs/page-document.ts applies it last).
// Link destinations a description may keep: web and mail links, in-page anchors, relative paths
// (any number of ../ first: the page sits in generated/docs/ and links files of the package).
// Anything else (javascript:, data:, vbscript:, an escaped or entity-encoded scheme) becomes "#".
const SAFE_DESTINATION =
  /^(?:https?:\/\/[^\s<>()\\]*|mailto:[^\s<>()\\]*|#[^\s<>()\\]*|\/[^\s<>()\\]*|(?:\.\.\/)*\.{0,2}\/?[\w-][\w.-]*(?:[/#?][^\s<>()\\]*)?)(?=[\s)]|$)/;

const escapeHtml = (text: string): string => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * Markdown with no HTML of its own: every `<` outside code becomes `&lt;`, a code span or fenced
 * block that holds `<`, `>` or `&` is written as escaped <code>/<pre> (the only tags the result
 * carries, without attributes), and link destinations outside an allow-list become "#". A
 * misread code span therefore still yields text, never a tag.
 */
export function sanitizeMarkdown(text: string): string {
  const out: string[] = [];
  // Fenced blocks (``` or ~~~ at the start of a line) and inline code spans (a backtick run closed
  // by a run of the same length, within one paragraph).
  const code = /(^[ \t]*(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:\n[ \t]*\2[ \t]*(?=\n|$)|$(?![\s\S])))|((?<!`)(`+)(?!`)((?:(?!\n[ \t]*\n)[\s\S])*?)(?<!`)\4(?!`))/gm;
  let last = 0;
  for (const m of text.matchAll(code)) {
    out.push(prose(text.slice(last, m.index)));
    const [whole, fenced, , , , spanBody = ""] = m;
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

function prose(text: string): string {
  return (
    text
      .replace(/</g, "&lt;")
      // Inline links and images: [text](destination ...)
      .replace(/\]\(\s*([^\s)]*)/g, (whole, destination: string) => (SAFE_DESTINATION.test(destination) ? whole : "](#"))
      // Reference definitions: [label]: destination
      .replace(/^( {0,3}\[[^\]\n]+\]:[ \t]*)(\S*)/gm, (whole, lead: string, destination: string) => (SAFE_DESTINATION.test(destination) ? whole : `${lead}#`))
  );
}

// Keys whose strings are rendered as markdown or text by Redoc; example values are shown as JSON
// text (escaped by Redoc), so `value` and `example` are not walked.
const TEXT_KEYS = new Set(["description", "summary", "title"]);
const DATA_KEYS = new Set(["example", "value", "x-codeSamples", "enum", "const", "default", "examples"]);

/** A copy of the document whose descriptions, summaries and titles hold no HTML (sanitizeMarkdown). */
export function sanitizeDocument<T>(document: T): T {
  const walk = (value: unknown, key: string | undefined): unknown => {
    if (Array.isArray(value)) return value.map((item) => walk(item, undefined));
    if (value && typeof value === "object") {
      const copy: Record<string, unknown> = {};
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
  return walk(document, undefined) as T;
}
