// The docs page's title and headings never break inside a word, from a wide desktop to a phone:
// at 390, 760 and 1440 px, in Chromium, each word of each heading is one line box (a word cut across
// lines, as "Deployme / nt", has two), and no word sticks out of the page. A heading may wrap
// between words; the page sets headings so that their longest word fits (tools/docs/template.hbs).
import { describe, expect, test } from "vitest";
import { chromiumAvailable, docsPageForSuite } from "../../support/docs-browser.js";

const WIDTHS = [1440, 760, 390];

describe.skipIf(!chromiumAvailable())("headings of the docs page", () => {
  const docs = docsPageForSuite();

  test("no word of the title or a heading breaks across lines", async () => {
    const broken: string[] = [];
    let measured = 0;
    for (const width of WIDTHS) {
      await docs.page.setViewportSize({ width, height: 900 });
      // The page renders sections as they come near the viewport: walk it to the end first.
      await docs.page.evaluate(async () => {
        for (let y = 0; y < document.body.scrollHeight; y += 800) {
          window.scrollTo(0, y);
          await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
        }
        window.scrollTo(0, 0);
      });
      const found = await docs.page.evaluate(() => {
        const out: { text: string; word: string; lines: number }[] = [];
        let headings = 0;
        for (const heading of document.querySelectorAll<HTMLElement>("h1, h2, h3, [data-role='title'], .api-info h1")) {
          if (heading.getClientRects().length === 0) continue;
          headings += 1;
          const walker = document.createTreeWalker(heading, NodeFilter.SHOW_TEXT);
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const text = node.textContent ?? "";
            for (const match of text.matchAll(/\S+/g)) {
              const range = document.createRange();
              range.setStart(node, match.index!);
              range.setEnd(node, match.index! + match[0].length);
              // One rect per line box the word's glyphs sit in.
              const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
              if (tops.size > 1) out.push({ text: heading.textContent ?? "", word: match[0], lines: tops.size });
              // Nor may a word that does not break stick out of the page.
              const right = Math.max(...[...range.getClientRects()].map((r) => r.right));
              if (right > document.documentElement.clientWidth + 0.5) out.push({ text: heading.textContent ?? "", word: match[0], lines: -1 });
            }
          }
        }
        return { out, headings };
      });
      measured += found.headings;
      broken.push(
        ...found.out.map(
          (b) => `${width} px: "${b.word}" in "${b.text.trim().slice(0, 60)}" ${b.lines < 0 ? "sticks out of the page" : `spans ${b.lines} lines`}`,
        ),
      );
    }
    expect(measured).toBeGreaterThan(WIDTHS.length * 5);
    expect(broken).toEqual([]);
    await docs.page.setViewportSize({ width: 1280, height: 900 });
  }, 120_000);
});
