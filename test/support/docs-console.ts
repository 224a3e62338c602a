// Finding an operation's "Try it" console on the docs page, for the browser tests of the consoles.
// Apart from docs-browser.ts, which tools/bench/docs.ts imports as TypeScript and so may import
// nothing of the repository at run time.
import type { Locator, Page } from "playwright-core";
import { tagSlug } from "../../tools/docs/page-document.ts";
import { operationById } from "./document.js";

/** Goes to the operation by its link (#/<tag>/<operationid>, as the sidebar and the guide link it) and finds its console. */
export async function consoleOf(page: Page, operationId: string): Promise<Locator> {
  const { op } = operationById(operationId);
  const sectionId = `${tagSlug(op.tags[0])}/${operationId.toLowerCase()}`;
  await page.evaluate((hash) => {
    location.hash = hash;
  }, `#/${sectionId}`);
  const element = page.locator(`[id="${sectionId}"] [data-try-operation="${operationId}"]`);
  await element.waitFor();
  await element.scrollIntoViewIfNeeded();
  return element;
}
