// Types for scripts/docs-page.mjs, so TypeScript tests can import it.
export declare const CONSOLE_ENTRY: string;
export declare const GUIDE_HEADING: string;
/** Markdown with no HTML of its own and no link outside the allow-list. */
export declare function sanitizeMarkdown(text: string): string;
/** A copy of the document whose descriptions, summaries and titles hold no HTML. */
export declare function sanitizeDocument<T>(document: T): T;
export declare function tagSlug(name: string): string;
/** The document Redoc renders: code samples, the guide section, descriptions made inert. */
export declare function docsDocument<T>(bundle: T, walk: typeof import("../src/shared/walk.js")): T;
/** Redoc's page for a document, before finishPage. */
export declare function renderWithRedoc(documentForPage: unknown): Promise<string>;
/** The console script, minified, for an inline script. */
export declare function bundleConsole(): Promise<string>;
export declare function scriptHash(text: string): string;
/** The page as written: no remote logo, the console script (when given), scripts allowed by hash only. */
export declare function finishPage(html: string, consoleScript: string | undefined): string;
