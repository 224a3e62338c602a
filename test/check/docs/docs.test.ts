// The built docs page (generated/docs/index.html) in a real browser, offline: opened from a file
// with every request that would leave the page blocked. What a reader must find there is derived
// from generated/openapi.json: every operation under its tag, the patch deployment body with its
// nullable fields, the revision rules, the security schemes and the problem+json error format.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { chromiumAvailable, CHROMIUM_PATH, docsPageForSuite, expandTag, showOperation } from "../../support/docs-browser.js";
import { document, operations, operationById, deref, ROOT } from "../../support/document.js";

const PAGE_HTML = readFileSync(join(ROOT, "generated", "docs", "index.html"), "utf8");

const PATCH_DEPLOYMENT = "patchDeployment";

function isNullable(schema: any): boolean {
  const s = deref(schema);
  if (Array.isArray(s.type) && s.type.includes("null")) return true;
  if (s.type === "null" || (Array.isArray(s.enum) && s.enum.includes(null))) return true;
  return [...(s.anyOf ?? []), ...(s.oneOf ?? [])].some(isNullable);
}

// Markdown as a reader sees it: no code ticks, emphasis or list markers, single spaces.
function asRenderedText(markdown: string): string {
  return markdown
    .replace(/`|\*\*/g, "")
    .replace(/^\s*- /gm, "")
    .replace(/\s+/g, " ")
    .trim();
}

function squeeze(text: string): string {
  return text.replace(/\s+/g, " ");
}

if (!chromiumAvailable()) {
  console.warn(`docs browser test skipped: no chromium at ${CHROMIUM_PATH} (apt-get install chromium, as .ci/run does, or set CHROMIUM_PATH)`);
}

describe.skipIf(!chromiumAvailable())(`docs page in chromium (${CHROMIUM_PATH}), offline`, () => {
  // Everything here shows within a second or two: each step fails within 10 s, not at the suite timeout.
  const docs = docsPageForSuite();

  test("lists every operation in the sidebar, under its tag, with its method", async () => {
    const tags: string[] = document.tags.map((t: any) => t.name);
    const expected = Object.fromEntries(tags.map((tag) => [tag, [] as string[]]));
    for (const { method, operationId, op } of operations()) {
      for (const tag of op.tags) expected[tag]!.push(`${op.summary} ${method.toUpperCase()} ${operationId.toLowerCase()}`);
    }
    expect(Object.values(expected).flat()).toHaveLength(12);

    const shown: Record<string, string[]> = {};
    for (const tag of tags) {
      const items = await expandTag(docs.page, tag);
      // The first entry is the tag's own page; the operations follow, linked as #/<tag>/<operationid>.
      shown[tag] = items.filter((i) => i.method).map((i) => `${i.summary} ${i.method} ${i.href.split("/").pop()}`);
    }
    expect(shown).toEqual(expected);
  });

  test("shows the patch deployment body fields, marking exactly the nullable ones", async () => {
    const { op } = operationById(PATCH_DEPLOYMENT);
    const { section, sectionId } = await showOperation(docs.page, op.tags[0], op.summary);
    const body = deref(deref(op.requestBody).content["application/json"].schema);
    const fields = Object.entries<any>(body.properties);
    expect(fields.map(([name]) => name)).toEqual(
      expect.arrayContaining(["revision_source", "source_config", "source_revision_config", "secrets", "secret_references"]),
    );
    expect(fields.some(([, schema]) => isNullable(schema))).toBe(true);

    for (const [name, schema] of fields) {
      const row = section.locator(`[id="${sectionId}/t=request&path=${name}"]`);
      expect.soft(await row.count(), `body field ${name}`).toBe(1);
      // The row's first line: the name, then its type ("string or null", "object", ...).
      const type = await row.locator(":scope > div").first().locator("em").first().innerText();
      expect.soft(type.includes("or null"), `${name}: "${type}"`).toBe(isNullable(schema));
    }
  });

  test("shows the rules of which change creates a revision", async () => {
    const { op } = operationById(PATCH_DEPLOYMENT);
    const { section } = await showOperation(docs.page, op.tags[0], op.summary);
    const text = squeeze(await section.innerText());
    const paragraphs = op.description
      .split(/\n\s*\n|\n(?=- )/)
      .map(asRenderedText)
      .filter(Boolean);
    expect(paragraphs.length).toBeGreaterThan(2);
    for (const paragraph of paragraphs) expect.soft(text).toContain(paragraph);
    expect(text).toMatch(/revision_source present and not null: a new revision is created/);
  });

  test("shows the security schemes and their headers", async () => {
    const { op } = operationById(PATCH_DEPLOYMENT);
    const { section } = await showOperation(docs.page, op.tags[0], op.summary);
    await section.getByRole("button", { name: "View security details" }).click();
    const dialog = docs.page.locator('div[tabindex="0"]:has(> [data-component-name="Segmented/Segmented"])');
    await dialog.getByText("Header parameter name:").first().waitFor();
    const text = await dialog.innerText();
    const schemes = Object.entries<any>(document.components.securitySchemes);
    expect(schemes.map(([, s]) => s.name)).toEqual(expect.arrayContaining(["X-Api-Key", "X-Tenant-Id"]));
    for (const [key, scheme] of schemes) {
      expect.soft(text).toContain(key);
      expect.soft(text).toMatch(new RegExp(`Header parameter name:\\s+${scheme.name}`));
      expect.soft(squeeze(text)).toContain(squeeze(scheme.description.trim()));
    }
    await docs.page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
  });

  test("shows the problem+json error format with its fields", async () => {
    const { op } = operationById(PATCH_DEPLOYMENT);
    const { section, sectionId } = await showOperation(docs.page, op.tags[0], op.summary);
    const invalid = deref(op.responses["422"]);
    const [mediaType, content] = Object.entries<any>(invalid.content)[0]!;
    expect(mediaType).toBe("application/problem+json");
    await section.getByRole("tab", { name: "422", exact: true }).click();
    const fields = Object.keys(deref(content.schema).properties);
    const row = (field: string) => section.locator(`[id="${sectionId}/t=response&c=422&path=${field}"]`);
    await row(fields[0]!).waitFor();
    for (const field of fields) expect.soft(await row(field).count(), `problem field ${field}`).toBe(1);
    expect(await section.innerText()).toContain(mediaType);
  });

  test('has one sidebar entry per name: the description\'s sections and the tags do not repeat (no two "Revisions")', async () => {
    const names = await docs.page
      .locator('[data-component-name="Menu/MenuItem"] > a, [data-component-name="Menu/MenuItem"] a')
      .evaluateAll((links) =>
        links
          .filter((a) => !a.closest('[data-component-name="Menu/MenuItem"] [data-component-name="Menu/MenuItem"]'))
          .map((a) => (a as HTMLElement).innerText.split("\n")[0]!.trim()),
      );
    expect(names.filter((n) => n === "Revisions")).toHaveLength(1);
    expect(names.slice(0, 3)).toEqual([document.info.title, "Deploy and follow a revision", "Authentication"]);
  });

  test("code samples: the copy button covers no code, and long lines wrap inside the panel", async () => {
    const { op } = operationById(PATCH_DEPLOYMENT);
    const { section } = await showOperation(docs.page, op.tags[0], op.summary);
    const block = section.locator('[data-component-name="CodeBlock/CodeBlock"]', { hasText: "curl -X PATCH" }).first();
    await block.locator('[data-testid="copy-button"]').waitFor();
    // Both boxes in one frame, after the page stopped moving: read one at a time, a scroll still in
    // progress between the two reads shifted one of them (18 px once on a loaded machine).
    const boxes = await block.evaluate(async (element) => {
      let last = "";
      for (let frame = 0; frame < 120; frame++) {
        await new Promise((resolve) => requestAnimationFrame(resolve));
        const button = element.querySelector('[data-testid="copy-button"]')?.getBoundingClientRect();
        const line = element.querySelector(".th-line")?.getBoundingClientRect();
        if (!button || !line) continue;
        const now = JSON.stringify([button.bottom, line.top]);
        if (now === last) return { buttonBottom: button.bottom, lineTop: line.top };
        last = now;
      }
      return undefined;
    });
    expect(boxes).toBeTruthy();
    // The button ends above the first line of code.
    expect(boxes!.buttonBottom).toBeLessThanOrEqual(boxes!.lineTop + 1);
    const overflow = await block.locator("pre").evaluate((pre) => pre.scrollWidth - pre.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await block.textContent()).toContain("https://deployments.example.com/v2/deployments/");
  });

  test("made no request that left the page, was refused nothing by its policy, and threw no errors", () => {
    expect(docs.outsideRequests).toEqual([]);
    expect(docs.refusedByPolicy).toEqual([]);
    expect(docs.pageErrors).toEqual([]);
  });
});

describe("the docs page's Content-Security-Policy", () => {
  const policy = PAGE_HTML.match(/<meta http-equiv="Content-Security-Policy" content="([^"]*)"/)?.[1] ?? "";
  const directive = (name: string) =>
    policy
      .split(";")
      .map((d) => d.trim())
      .find((d) => d.startsWith(`${name} `)) ?? "";

  test("runs only the page's own inline scripts, each by its hash: no 'unsafe-inline', no eval, no URL", () => {
    const scripts = [...PAGE_HTML.matchAll(/<script(\s[^>]*)?>([\s\S]*?)<\/script>/g)].map((m) => m[2]!);
    const hashes = scripts.map((text) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`);
    expect(directive("script-src")).toBe(`script-src ${hashes.join(" ")}`);
    expect(scripts.length).toBe(3);
    expect(directive("connect-src")).toBe("connect-src 'none'");
    expect(directive("default-src")).toBe("default-src 'none'");
  });

  test("the page names no remote resource: Redoc's badge logo is gone", () => {
    expect(PAGE_HTML).not.toMatch(/cdn\.redoc\.ly/);
  });
});

// The README shows assets/docs.png; `npm run screenshot` makes it from the page above.
test("the README's screenshot is a 1280x800 PNG", () => {
  const png = readFileSync(join(ROOT, "assets", "docs.png"));
  expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
  expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1280, 800]);
  expect(readFileSync(join(ROOT, "README.md"), "utf8")).toContain("](assets/docs.png)");
});
