// The "Try it" consoles of the docs page (src/docs-console/), in Chromium, offline from file:// with
// every request that would leave the page aborted and recorded: every operation is filled and sent
// through the consoles' stable attributes and answers a status its operation documents with a body
// valid against the documented schema (ajv, draft 2020-12, the bundled document); a PATCH is followed
// to DEPLOYED through the page alone; reset returns to the seed; and the guide's console walks the
// deploy. One browser, one page load.
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { Locator } from "playwright-core";
import { describe, expect, test } from "vitest";
import { CHROMIUM_PATH, chromiumAvailable, docsPageForSuite } from "../support/docs-browser.js";
import { consoleOf } from "../support/docs-console.js";
import * as walk from "../../src/shared/walk.js";
import { deref, document, operationById, operations } from "../support/document.js";

const ajv = new (Ajv2020 as unknown as typeof Ajv2020.default)({ strict: false, allErrors: true });
(addFormats as unknown as typeof addFormats.default)(ajv);
ajv.addSchema(document, "doc");

/** The schema of one documented answer, as a validator (refs resolve inside the document). */
function validatorFor(operationId: string, status: string) {
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
function bodyExample(operationId: string): string | undefined {
  const { op } = operationById(operationId);
  if (!op.requestBody) return undefined;
  const media = deref(op.requestBody).content["application/json"];
  return JSON.stringify(deref(Object.values<any>(media.examples)[0]).value, null, 2);
}

/** The first value the page offers for an id input (its <datalist>). */
async function offeredId(element: Locator, name: string): Promise<string> {
  const list = await element.locator(`[data-try-param="${name}"]`).getAttribute("list");
  expect(list, `the ${name} input offers ids`).toBeTruthy();
  const value = await element.page().locator(`datalist[id="${list}"] option`).first().getAttribute("value");
  expect(value, `the ${name} list has an id`).toBeTruthy();
  return value!;
}

/** Sends what the console holds; resolves with the answer's status and parsed body. */
async function send(element: Locator): Promise<{ status: string; body: any }> {
  const answer = element.locator("[data-try-response]");
  await answer.evaluate((e) => e.removeAttribute("data-status"));
  await element.locator("[data-try-send]").click();
  await element.locator("[data-try-response][data-status]").waitFor();
  const status = (await answer.getAttribute("data-status"))!;
  const text = (await answer.locator("[data-try-response-body]").textContent()) ?? "";
  return { status, body: text ? JSON.parse(text) : undefined };
}

if (!chromiumAvailable()) console.warn(`try-it test skipped: no chromium at ${CHROMIUM_PATH}`);

describe.skipIf(!chromiumAvailable())("Try it consoles in the docs page, offline", () => {
  const docs = docsPageForSuite();

  test("every operation, filled and sent through the attributes, answers a documented status with a body valid against its schema", async () => {
    const all = operations();
    expect(all).toHaveLength(12);
    const answered: Record<string, string> = {};
    for (const { operationId, path } of all) {
      const element = await consoleOf(docs.page, operationId);
      // Each id input gets the first of the seed's ids the page offers for it.
      const filledPath: Record<string, string> = {};
      for (const name of [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!)) {
        filledPath[name] = await offeredId(element, name);
        await element.locator(`[data-try-param="${name}"]`).fill(filledPath[name]);
      }
      await element.locator('[data-try-param="X-Api-Key"]').fill("docs-test-key");
      const body = bodyExample(operationId);
      if (body !== undefined) await element.locator("[data-try-body]").fill(body);
      const answer = await send(element);
      answered[operationId] = answer.status;
      const { op } = operationById(operationId);
      expect.soft(Object.keys(op.responses), `${operationId} answered ${answer.status}`).toContain(answer.status);
      const validate = validatorFor(operationId, answer.status);
      expect.soft(validate, `${operationId} ${answer.status} has a schema`).toBeDefined();
      if (validate) expect.soft(validate(answer.body) ? [] : validate.errors, `${operationId} ${answer.status} body`).toEqual([]);
      // The same request, to copy: curl and the typed client.
      const target = path.replace(/\{([^}]+)\}/g, (_, name: string) => filledPath[name]!);
      expect.soft((await element.locator("[data-try-curl]").textContent()) ?? "").toMatch(new RegExp(`^curl[\\s\\S]*${target}'$`));
      expect
        .soft((await element.locator("[data-try-client]").textContent()) ?? "")
        .toContain(`client.${operationById(operationId).method.toUpperCase()}(${JSON.stringify(path)}`);
    }
    expect(
      Object.values(answered).every((s) => s === "200"),
      JSON.stringify(answered),
    ).toBe(true);
  });

  test("a wrong request gets the documented problem: an unknown id is 404, a bad body is 422", async () => {
    const get = await consoleOf(docs.page, "getDeployment");
    await get.locator('[data-try-param="deployment_id"]').fill("6b0d8a52-3c1e-4f7a-9b2d-1e5f3a7c9d01");
    const missing = await send(get);
    expect(missing.status).toBe("404");
    expect(validatorFor("getDeployment", "404")!(missing.body)).toBe(true);

    const patch = await consoleOf(docs.page, "patchDeployment");
    await patch.locator("[data-try-body]").fill('{"name": "renamed"}');
    const invalid = await send(patch);
    expect(invalid.status).toBe("422");
    expect(validatorFor("patchDeployment", "422")!(invalid.body)).toBe(true);
  });

  test("a PATCH is followed to DEPLOYED through the page alone: pause the clock, patch, read, advance, read", async () => {
    const patch = await consoleOf(docs.page, "patchDeployment");
    await patch.locator("[data-try-run]").uncheck();
    const deploymentId = await offeredId(patch, "deployment_id");
    await patch.locator('[data-try-param="deployment_id"]').fill(deploymentId);
    await patch.locator("[data-try-body]").fill('{"source_revision_config": {"repo_ref": "release/9.9"}}');
    const patched = await send(patch);
    expect(patched.status).toBe("200");
    const revisionId: string = patched.body.latest_revision_id;
    expect(revisionId).toMatch(/^[0-9a-f-]{36}$/);

    const get = await consoleOf(docs.page, "getRevision");
    // The new revision's id is offered where a revision id is asked for.
    const list = await get.locator('[data-try-param="revision_id"]').getAttribute("list");
    expect(await docs.page.locator(`datalist[id="${list}"] option[value="${revisionId}"]`).count()).toBe(1);
    // And the revision's console already asks for it: the newest revision created in the page.
    expect(await get.locator('[data-try-param="deployment_id"]').inputValue()).toBe(deploymentId);
    expect(await get.locator('[data-try-param="revision_id"]').inputValue()).toBe(revisionId);
    expect(await get.locator("[data-try-curl]").textContent()).toContain(revisionId);
    const first = await send(get);
    expect(first.status).toBe("200");
    expect(first.body.status).toBe("CREATING");

    await get.locator("[data-try-advance-seconds]").fill("600");
    await get.locator("[data-try-advance]").click();
    const last = await send(get);
    expect(last.body).toMatchObject({ id: revisionId, status: "DEPLOYED", source_revision_config: { repo_ref: "release/9.9" } });

    // The state is the page's: the deployment now points at the new revision, until a reset.
    const deployment = await consoleOf(docs.page, "getDeployment");
    await deployment.locator('[data-try-param="deployment_id"]').fill(deploymentId);
    expect((await send(deployment)).body.active_revision_id).toBe(revisionId);
    await deployment.locator("[data-try-reset]").click();
    await expect.poll(async () => (await send(deployment)).body.latest_revision_id).not.toBe(revisionId);
    await deployment.locator("[data-try-run]").check();
  });

  test("the guide section's console deploys and follows a revision to its end", async () => {
    const guide = docs.page.locator("[data-try-guide]");
    await guide.scrollIntoViewIfNeeded();
    // It sits in the guide section, which links both operations.
    const section = docs.page.locator('[data-section-id="/section/deploy-and-follow-a-revision"]');
    expect(await section.locator("[data-try-guide]").count()).toBe(1);
    expect(await section.locator('a[href$="/deployments/patchdeployment"]').count()).toBeGreaterThan(0);
    expect(await section.locator('a[href$="/revisions/getrevision"]').count()).toBeGreaterThan(0);
    await guide.locator("[data-try-send]").click();
    await guide.locator("[data-try-log] li", { hasText: "DEPLOYED" }).waitFor({ timeout: 20_000 });
    const log = (await guide.locator("[data-try-log]").textContent()) ?? "";
    expect(log).toMatch(/PATCH .* answered 200/);
    expect(log).toMatch(/latest_revision_id is [0-9a-f-]{36}/);
    expect(log.indexOf("CREATING")).toBeLessThan(log.indexOf("DEPLOYED"));
    expect(await guide.locator("[data-try-response]").getAttribute("data-status")).toBe("200");
  });

  test("says where the answers come from, and nothing left the page", async () => {
    const text = (await (await consoleOf(docs.page, "listDeployments")).textContent()) ?? "";
    expect(text).toMatch(/simulator running inside this page: nothing is sent over the network/);
    expect(docs.outsideRequests).toEqual([]);
    expect(docs.refusedByPolicy).toEqual([]);
    expect(docs.pageErrors).toEqual([]);
  });
});
