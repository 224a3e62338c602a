// `npm run screenshot`: regenerates assets/docs.png, the docs screenshot the README shows.
// It opens generated/docs/index.html offline in Debian's chromium (the same way the docs test
// does), opens "Update a deployment" from the sidebar, sends its "Try it" console (answered by the
// simulator in the page) and captures the 1280x800 window: the sidebar with every tag, the
// operation's body fields, and beside them the console with its answer.
import { mkdir } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { OpenApiDocument } from "../../src/shared/walk.ts";
import { CHROMIUM_PATH, chromiumAvailable, launchChromium, openOfflinePage, showOperation } from "../../test/support/docs-browser.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const output = join(root, "assets", "docs.png");

// The operation to show, looked up in the bundle so a renamed summary or tag still works.
const OPERATION_ID = "patchDeployment";

function findOperation(document: OpenApiDocument, operationId: string): { tags: [string, ...string[]]; summary: string } {
  for (const pathItem of Object.values(document.paths)) {
    for (const op of Object.values(pathItem)) {
      if (op && typeof op === "object" && op.operationId === operationId) return op;
    }
  }
  throw new Error(`no operation ${operationId} in generated/openapi.json`);
}

if (!chromiumAvailable()) {
  console.error(`No chromium at ${CHROMIUM_PATH}: apt-get install chromium (or set CHROMIUM_PATH).`);
  process.exit(1);
}

const document = JSON.parse(readFileSync(join(root, "generated", "openapi.json"), "utf8"));
const op = findOperation(document, OPERATION_ID);
const browser = await launchChromium();
try {
  const { page, outsideRequests } = await openOfflinePage(browser, { width: 1280, height: 800 });
  const { section } = await showOperation(page, op.tags[0], op.summary);
  const tryIt = section.locator(`[data-try-operation="${OPERATION_ID}"]`);
  await tryIt.locator("[data-try-send]").click();
  await tryIt.locator("[data-try-response][data-status]").waitFor();
  // The console's parameters at the top of the window, its answer below them.
  await tryIt
    .locator("[data-try-param]")
    .first()
    .evaluate((element) => {
      element.scrollIntoView({ block: "start" });
      window.scrollBy(0, -150);
    });
  await page.waitForTimeout(200);
  await mkdir(dirname(output), { recursive: true });
  await page.screenshot({ path: output });
  if (outsideRequests.length > 0) throw new Error(`the page asked for ${outsideRequests.join(", ")}`);
  console.log(`Wrote ${output.slice(root.length + 1)} (1280x800, "${op.summary}" and its console's answer)`);
} finally {
  await browser.close();
}
