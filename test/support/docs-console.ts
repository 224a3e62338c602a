// Finding an operation's "Try it" console on the docs page, for the browser tests of the consoles.
// Apart from docs-browser.ts, which tools/bench/docs.ts imports as TypeScript and so may import
// nothing of the repository at run time.
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { Locator, Page } from "playwright-core";
import { expect } from "vitest";
import { tagSlug } from "../../tools/docs/page-document.ts";
import * as walk from "../../src/shared/walk.js";
import { deref, document, operationById } from "./document.js";

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

const ajv = new (Ajv2020 as unknown as typeof Ajv2020.default)({ strict: false, allErrors: true });
(addFormats as unknown as typeof addFormats.default)(ajv);
ajv.addSchema(document, "doc");

/** The schema of one documented answer, as a validator (refs resolve inside the document). */
export function validatorFor(operationId: string, status: string) {
  const { path, method } = operationById(operationId);
  const response = deref(document.paths[path][method].responses[status]);
  const [mediaType] = Object.keys(response.content ?? {});
  if (!mediaType) return undefined;
  const responseRef = document.paths[path][method].responses[status].$ref as string | undefined;
  const pointer = responseRef
    ? `${responseRef}/content/${walk.escapePointerSegment(mediaType)}/schema`
    : `#${walk.toPointer(["paths", path, method, "responses", status, "content", mediaType, "schema"])}`;
  return ajv.getSchema(`doc${pointer}`);
}

/** The first request body example of an operation, as JSON text. */
export function bodyExample(operationId: string): string | undefined {
  const { op } = operationById(operationId);
  if (!op.requestBody) return undefined;
  const media = deref(op.requestBody).content["application/json"];
  return JSON.stringify(deref(Object.values<any>(media.examples)[0]).value, null, 2);
}

/** The first value the page offers for an id input (its <datalist>). */
export async function offeredId(element: Locator, name: string): Promise<string> {
  const list = await element.locator(`[data-try-param="${name}"]`).getAttribute("list");
  expect(list, `the ${name} input offers ids`).toBeTruthy();
  const value = await element.page().locator(`datalist[id="${list}"] option`).first().getAttribute("value");
  expect(value, `the ${name} list has an id`).toBeTruthy();
  return value!;
}

/** Sends what the console holds; resolves with the answer's status and parsed body. */
export async function send(element: Locator): Promise<{ status: string; body: any }> {
  const answer = element.locator("[data-try-response]");
  await answer.evaluate((e) => e.removeAttribute("data-status"));
  await element.locator("[data-try-send]").click();
  await element.locator("[data-try-response][data-status]").waitFor();
  const status = (await answer.getAttribute("data-status"))!;
  const text = (await answer.locator("[data-try-response-body]").textContent()) ?? "";
  return { status, body: text ? JSON.parse(text) : undefined };
}
