// The "Try it" consoles of the docs page (src/docs-console/), in Chromium, offline from file:// with
// every request that would leave the page aborted and recorded: a wrong request gets its documented
// problem; a PATCH is followed to DEPLOYED through the page alone; reset returns to the seed; and the
// guide's console walks the deploy. One browser, one page load. Every operation filled and sent, each
// answer checked against its schema, is test/check/docs/try-it-operations.test.ts (the check lane).
import { describe, expect, test } from "vitest";
import { CHROMIUM_PATH, chromiumAvailable, docsPageForSuite } from "../support/docs-browser.js";
import { consoleOf, offeredId, send, validatorFor } from "../support/docs-console.js";

if (!chromiumAvailable()) console.warn(`try-it test skipped: no chromium at ${CHROMIUM_PATH}`);

describe.skipIf(!chromiumAvailable())("Try it consoles in the docs page, offline", () => {
  const docs = docsPageForSuite();

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
    // The new revision's id is offered where a revision id is asked for, though this console is
    // first built now, after the PATCH (Redoc renders an operation when it is first shown).
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
