// HTML in the document never runs in the docs page, by two separate guards, each proven here:
// 1. the build makes every description, summary and title inert (sanitizeMarkdown: no tag of its
//    own, no link outside an allow-list), so Redoc renders the attack as text;
// 2. the page's Content-Security-Policy runs only the page's own scripts, by hash, so even HTML that
//    reached the page (the second render below skips the sanitizer on purpose) runs nothing.
// The attack: an iframe srcdoc with a script, an ontoggle and an onerror handler, a script element and
// javascript: links, in the description at the top of the page and in an operation's description.
import { writeFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, test } from "vitest";
import { withCodeSamples } from "../../../tools/docs/code-samples.ts";
import { CHROMIUM_PATH, chromiumAvailable, launchChromium, openOfflinePage } from "../../support/docs-browser.js";
import { docsDocument } from "../../../tools/docs/page-document.ts";
import { finishPage, renderWithRedoc, scriptHash } from "../../../tools/docs/page-html.ts";
import { sanitizeDocument, sanitizeMarkdown } from "../../../tools/docs/sanitize.ts";
import { document as bundle } from "../../support/document.js";

const ATTACK = [
  "Hostile text follows.",
  "",
  `<iframe srcdoc="<script>parent.__ran = (parent.__ran || []).concat('srcdoc')</script>"></iframe>`,
  "",
  `<details open ontoggle="window.__ran = (window.__ran || []).concat('ontoggle')"><summary>open me</summary>x</details>`,
  "",
  `<img src="data:," onerror="window.__ran = (window.__ran || []).concat('onerror')">`,
  "",
  "[a javascript link](javascript:window.__ran=['link']) and [an escaped one](javascript\\:window.__ran=['escaped']) and [an encoded one](java&#115;cript:window.__ran=['encoded']).",
].join("\n");
const SCRIPT = `<script>window.__ran = (window.__ran || []).concat('script')</script>`;

function withAttack(bundle: any, extra = ""): any {
  const copy = structuredClone(bundle);
  copy.info.description = `${ATTACK}\n${extra}\n\n${copy.info.description}`;
  copy.paths["/v2/listeners"].get.description = `${ATTACK}\n${extra}`;
  return copy;
}

describe("sanitizeMarkdown", () => {
  it("leaves no tag but its own escaped <code>/<pre>, and no link outside the allow-list", () => {
    const out = sanitizeMarkdown(`${ATTACK}\n${SCRIPT}\n[ref]: javascript:alert(1)\n<javascript:alert(2)>`);
    expect(out.match(/<(?!\/?(?:pre|code)>)/g) ?? []).toEqual([]);
    expect(out).not.toMatch(/\]\((?!#\)|#\s)/);
    expect(out).toContain("[ref]: #");
    expect(out).toContain("&lt;iframe srcdoc=");
  });

  it("keeps ordinary markdown as it is, links and code included; code holding < becomes escaped <code>", () => {
    const text = "A **bold** [link](https://example.com/a_b) and [anchor](#/revisions/getrevision), `code` and\n\n```ts\nconst a = 1;\n```";
    expect(sanitizeMarkdown(text)).toBe(text);
    expect(sanitizeMarkdown("such as `must be <= 100`.")).toBe("such as <code>must be &lt;= 100</code>.");
    // A backtick that closes nothing is not code: what follows it is escaped like any text.
    expect(sanitizeMarkdown("`a\n\n<img src=x onerror=alert(1)>`")).not.toMatch(/<img/);
  });

  it("walks every description, summary and title of the document, and no example value", () => {
    const copy = sanitizeDocument(withAttack(bundle));
    expect(JSON.stringify(copy.info.description)).not.toMatch(/<iframe|<details|<img/);
    expect(JSON.stringify(copy.paths["/v2/listeners"].get.description)).not.toMatch(/<iframe|<details|<img/);
    expect(copy.components.examples).toEqual(bundle.components.examples);
    // The document as written has a single description with HTML-like text, inside code.
    const changed = JSON.stringify(sanitizeDocument(bundle)) !== JSON.stringify(bundle);
    expect(changed).toBe(true);
    expect(sanitizeDocument(bundle).components.schemas.ProblemFieldError.properties.detail.description).toContain("<code>must be &lt;= 100</code>");
  });
});

describe("finishPage", () => {
  const page = (body: string) =>
    `<html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'none'"></head><body>${body}</body></html>`;

  it("allows exactly the page's own scripts by hash, and refuses to write a page with another inline script", () => {
    const out = finishPage(page(""), "console.log(1)");
    expect(out).toContain(`script-src ${scriptHash("console.log(1)")}`);
    expect(out).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(() => finishPage(page(SCRIPT), undefined)).toThrow(/inline script the docs page does not know/);
    expect(() => finishPage(page('<script src="https://cdn.example/x.js"></script>'), undefined)).toThrow(/by URL/);
  });
});

if (!chromiumAvailable()) console.warn(`description safety test skipped: no chromium at ${CHROMIUM_PATH}`);

describe.skipIf(!chromiumAvailable())("HTML in descriptions, rendered by Redoc in Chromium", () => {
  let browser: Browser;
  let dir: string;
  let sanitizedUrl: string;
  let rawUrl: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "dms-docs-attack-"));
    const [sanitized, raw] = await Promise.all([
      // As the build does it, with the script element too.
      renderWithRedoc(docsDocument(withAttack(bundle, SCRIPT))),
      // The sanitizer skipped: only the policy stands (a script element would stop finishPage).
      renderWithRedoc(withCodeSamples(withAttack(bundle))),
    ]);
    await writeFile(join(dir, "sanitized.html"), finishPage(sanitized, undefined));
    await writeFile(join(dir, "raw.html"), finishPage(raw, undefined));
    sanitizedUrl = pathToFileURL(join(dir, "sanitized.html")).href;
    rawUrl = pathToFileURL(join(dir, "raw.html")).href;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test("sanitized (as built): the attack is text; no handler, frame or script element; links go nowhere; nothing runs", async () => {
    const { page, outsideRequests, refusedByPolicy, pageErrors } = await openOfflinePage(browser, { url: sanitizedUrl });
    const description = page.locator('[data-section-id="/"]').first();
    await description.getByText("Hostile text follows.").waitFor();
    expect(await description.textContent()).toContain('<iframe srcdoc="<script>');
    const found = await page.evaluate(() => ({
      frames: document.querySelectorAll("#redoc iframe").length,
      handlers: [...document.querySelectorAll("#redoc *")].filter((e) => [...e.attributes].some((a) => /^on/i.test(a.name))).length,
      scripts: document.querySelectorAll("#redoc script").length,
      links: [...document.querySelectorAll("#redoc a")].map((a) => a.getAttribute("href") ?? "").filter((h) => /script:/i.test(h)),
    }));
    // Redoc's own color-mode script is the one script element inside #redoc.
    expect(found).toEqual({ frames: 0, handlers: 0, scripts: 1, links: [] });
    await description.getByText("a javascript link").click();
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (window as any).__ran)).toBeUndefined();
    expect({ outsideRequests, refusedByPolicy, pageErrors }).toEqual({ outsideRequests: [], refusedByPolicy: [], pageErrors: [] });
  });

  test("not sanitized: Redoc renders the srcdoc frame, and the page's policy refuses its script", async () => {
    const { page, outsideRequests, refusedByPolicy } = await openOfflinePage(browser, { url: rawUrl });
    // React drops on* attributes it is given as text; a frame's srcdoc it keeps, and the frame inherits the policy.
    await page.locator('#redoc iframe[srcdoc*="__ran"]').first().waitFor({ state: "attached" });
    await expect.poll(() => refusedByPolicy.length).toBeGreaterThan(0);
    expect(await page.evaluate(() => (window as any).__ran)).toBeUndefined();
    // What the policy refused is inline code, never a remote URL; nothing left the page.
    expect(refusedByPolicy.every((u) => u === "inline")).toBe(true);
    expect(outsideRequests).toEqual([]);
  });
});
