// Opens the built docs (generated/docs/index.html) in Debian's chromium with playwright-core,
// with every request that would leave the page blocked and recorded. Used by the docs browser
// tests, by tools/docs/screenshot.ts and by tools/bench/docs.ts, so all look at the page the same
// way. Node runs it directly for the tools, so it imports no other test module.
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** Debian's chromium (`apt-get install chromium`); no browser downloads are possible here. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const DOCS_FILE = join(root, "generated", "docs", "index.html");
export const DOCS_URL = pathToFileURL(DOCS_FILE).href;

// No sandbox: CI runs as root in a container. The rest keeps chromium itself off the network.
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export function chromiumAvailable(): boolean {
  return existsSync(CHROMIUM_PATH);
}

export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import("playwright-core");
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

const LOCAL_SCHEMES = /^(file|data|blob|about):/;

/** A page opened offline, and what it tried that the page may not do. */
export interface OfflinePage {
  page: Page;
  context: BrowserContext;
  /** URLs the page asked for that are not file:, data: or blob: (all aborted). */
  outsideRequests: string[];
  /** URLs the page's Content-Security-Policy refused before they were requested. */
  refusedByPolicy: string[];
  pageErrors: string[];
}

/** One operation in the sidebar. */
export interface SidebarOperation {
  summary: string;
  method: string;
  href: string;
}

/**
 * A page that may load only file:, data: and blob: URLs, not navigated yet. Everything else is
 * aborted and recorded in `outsideRequests`; what the page's Content-Security-Policy refuses before
 * it is even requested is recorded in `refusedByPolicy`.
 */
export async function offlinePage(browser: Browser, { width = 1280, height = 800 }: { width?: number; height?: number } = {}): Promise<OfflinePage> {
  const context = await browser.newContext({ viewport: { width, height }, serviceWorkers: "block" });
  const page = await context.newPage();
  const outsideRequests: string[] = [];
  const refusedByPolicy: string[] = [];
  const pageErrors: string[] = [];
  await context.route("**/*", (route) => {
    const url = route.request().url();
    if (LOCAL_SCHEMES.test(url)) return route.continue();
    outsideRequests.push(url);
    return route.abort("blockedbyclient");
  });
  await page.exposeFunction("__reportPolicyViolation", (url: string) => refusedByPolicy.push(url));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      // @ts-expect-error: exposed by offlinePage
      window.__reportPolicyViolation(event.blockedURI);
    });
  });
  page.on("pageerror", (error) => pageErrors.push(error.message));
  return { page, context, outsideRequests, refusedByPolicy, pageErrors };
}

/** Opens the docs page (or another built page, `url`) in an offlinePage and waits for its sidebar. */
export async function openOfflinePage(
  browser: Browser,
  { width = 1280, height = 800, url = DOCS_URL }: { width?: number; height?: number; url?: string } = {},
): Promise<OfflinePage> {
  const opened = await offlinePage(browser, { width, height });
  await opened.page.goto(url);
  await sidebarGroups(opened.page).first().waitFor();
  return opened;
}

/**
 * The docs page opened offline in one Chromium for the tests of a describe block: opened before
 * them (each step fails within 10 s rather than at the suite timeout), closed after. The returned
 * object reads the open page, so tests use it as they would the OfflinePage itself.
 */
export function docsPageForSuite(): OfflinePage {
  let browser: Browser | undefined;
  let opened: OfflinePage | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
    opened = await openOfflinePage(browser);
    opened.page.setDefaultTimeout(10_000);
  });
  afterAll(async () => {
    await browser?.close();
  });
  const current = (): OfflinePage => {
    if (!opened) throw new Error("the docs page is opened in beforeAll: use it inside a test");
    return opened;
  };
  return {
    get page() {
      return current().page;
    },
    get context() {
      return current().context;
    },
    get outsideRequests() {
      return current().outsideRequests;
    },
    get refusedByPolicy() {
      return current().refusedByPolicy;
    },
    get pageErrors() {
      return current().pageErrors;
    },
  };
}

/** The sidebar entries of the tags; each expands to its operations when clicked. */
export function sidebarGroups(page: Page): Locator {
  return page.locator('[data-component-name="Menu/MenuItem"].menu-item-type-group');
}

/** Expands the tag's sidebar group and lists its operations as { summary, method, href }. */
export async function expandTag(page: Page, tagName: string): Promise<SidebarOperation[]> {
  const group = sidebarGroups(page)
    .filter({ has: page.locator(`a[href$="${tagSlugHint(tagName)}"]`) })
    .filter({ hasText: tagName })
    .first();
  const items = group.locator('[data-component-name="Menu/MenuItem"]');
  // A click on an open group closes it: click only when its operations are not showing. On a busy
  // machine a click can land while the sidebar is still moving from the previous one and do
  // nothing, so look again and click again, a few times.
  for (let attempt = 1; !(await items.first().isVisible()); attempt++) {
    await group.locator("a").first().click();
    try {
      await items.first().waitFor({ state: "visible", timeout: 5_000 });
    } catch (error) {
      if (attempt >= 4) throw error;
    }
  }
  return items.evaluateAll((elements) =>
    elements.map((element) => {
      const link = element.querySelector("a") as HTMLElement | null;
      const [summary = "", method = ""] = (link?.innerText ?? "")
        .split("\n")
        .map((s) => s.trim())
        .filter(Boolean);
      return { summary, method, href: link?.getAttribute("href") ?? "" };
    }),
  );
}

// Redoc links a tag at /<slug of its name>: "OAuth providers" -> /oauth-providers.
function tagSlugHint(tagName: string): string {
  return (
    "/" +
    tagName
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")
  );
}

/**
 * Shows one operation the way a reader gets there: expand its tag, click its summary.
 * Returns the operation's section (Redoc gives it the id "<tag slug>/<operationId, lower case>").
 */
export async function showOperation(page: Page, tagName: string, summary: string): Promise<{ section: Locator; sectionId: string }> {
  const items = await expandTag(page, tagName);
  const item = items.find((i) => i.summary === summary);
  if (!item) throw new Error(`no sidebar entry "${summary}" under "${tagName}"`);
  await page.locator(`[data-component-name="Menu/MenuItem"] a[href="${item.href}"]`).click();
  const sectionId = item.href.replace(/^#\//, "");
  const section = page.locator(`[id="${sectionId}"]`);
  // Its heading reads "link to <summary> <summary>" to assistive tech (a deep-link anchor comes first).
  await section.locator("h1, h2", { hasText: summary }).first().waitFor({ state: "visible" });
  return { section, sectionId };
}
