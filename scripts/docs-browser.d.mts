// Types for scripts/docs-browser.mjs, so TypeScript tests can import it.
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
export declare const CHROMIUM_PATH: string;
export declare const DOCS_FILE: string;
export declare const DOCS_URL: string;
export declare function chromiumAvailable(): boolean;
export declare function launchChromium(): Promise<Browser>;
export interface OfflinePage {
  page: Page;
  context: BrowserContext;
  /** URLs the page asked for that are not file:, data: or blob: (all aborted). */
  outsideRequests: string[];
  /** URLs the page's Content-Security-Policy refused before they were requested. */
  refusedByPolicy: string[];
  pageErrors: string[];
}
export declare function offlinePage(browser: Browser, viewport?: { width?: number; height?: number }): Promise<OfflinePage>;
export declare function openOfflinePage(browser: Browser, options?: { width?: number; height?: number; url?: string }): Promise<OfflinePage>;
export declare function sidebarGroups(page: Page): Locator;
export interface SidebarOperation {
  summary: string;
  method: string;
  href: string;
}
export declare function expandTag(page: Page, tagName: string): Promise<SidebarOperation[]>;
export declare function showOperation(page: Page, tagName: string, summary: string): Promise<{ section: Locator; sectionId: string }>;
