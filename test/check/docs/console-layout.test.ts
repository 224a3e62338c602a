// The "Try it" consoles of the docs page from a wide desktop to a phone: at 1440, 1024, 760 and 390 px,
// in Chromium, no element of a console sticks out of it, and no text spills out of its own box. A
// sweep of every console at every width (about fifty scrolls), so it runs with the docs page's other
// layout checks in npm run check; test/check/docs/try-it-operations.test.ts sends every console's request.
import { describe, expect, test } from "vitest";
import { chromiumAvailable, docsPageForSuite } from "../../support/docs-browser.js";
import { consoleOf } from "../../support/docs-console.js";
import { operations } from "../../support/document.js";

describe.skipIf(!chromiumAvailable())("Try it consoles in the docs page, at every width", () => {
  const docs = docsPageForSuite();

  test("no console element is wider than its console, from a wide desktop to a phone", async () => {
    const overflowing: string[] = [];
    for (const width of [1440, 1024, 760, 390]) {
      await docs.page.setViewportSize({ width, height: 900 });
      // Measured as each comes into view: the page renders the sections near the viewport.
      for (const name of ["guide", ...operations().map((o) => o.operationId)]) {
        const box = name === "guide" ? docs.page.locator("[data-try-guide]") : await consoleOf(docs.page, name);
        if (name === "guide") await box.scrollIntoViewIfNeeded();
        const found = await box.evaluate((console: HTMLElement) => {
          const edge = console.getBoundingClientRect();
          const over: string[] = [];
          for (const element of console.querySelectorAll<HTMLElement>("*")) {
            const rect = element.getBoundingClientRect();
            if (rect.width === 0 || rect.height === 0) continue;
            const by = Math.max(rect.right - edge.right, edge.left - rect.left);
            if (by > 0.5) over.push(`<${element.tagName.toLowerCase()} class="${element.className}"> by ${by.toFixed(1)} px`);
            // Text wider than its own box spills out without moving the box: an unbroken path in a
            // title. Boxes that scroll their content (answers, samples, inputs) may hold wider text.
            const scrolls = getComputedStyle(element).overflowX !== "visible" || /^(INPUT|TEXTAREA)$/.test(element.tagName);
            const spill = element.scrollWidth - element.clientWidth;
            if (!scrolls && element.clientWidth > 0 && spill > 0.5)
              over.push(`<${element.tagName.toLowerCase()} class="${element.className}"> text by ${spill} px`);
          }
          return over;
        });
        overflowing.push(...found.map((line) => `${width} px, ${name}: ${line}`));
      }
    }
    expect(overflowing).toEqual([]);
    await docs.page.setViewportSize({ width: 1280, height: 900 });
  });
});
