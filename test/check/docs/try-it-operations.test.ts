// Every "Try it" console of the docs page (src/docs-console/), in Chromium, offline from file:// with
// every request that would leave the page aborted and recorded: each operation is filled and sent
// through the consoles' stable attributes, and answers a status its operation documents with a body
// valid against the documented schema (ajv, draft 2020-12, the bundled document); its curl line and
// client call name the same request. The fast lane's test/docs/try-it.test.ts follows a deploy in
// the page; this sweep of all twelve operations is the check lane's.
import { describe, expect, test } from "vitest";
import { CHROMIUM_PATH, chromiumAvailable, docsPageForSuite } from "../../support/docs-browser.js";
import { bodyExample, consoleOf, offeredId, send, validatorFor } from "../../support/docs-console.js";
import { operationById, operations } from "../../support/document.js";

if (!chromiumAvailable()) console.warn(`try-it operations test skipped: no chromium at ${CHROMIUM_PATH}`);

describe.skipIf(!chromiumAvailable())("Try it consoles in the docs page, every operation", () => {
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

  test("nothing left the page", () => {
    expect(docs.outsideRequests).toEqual([]);
    expect(docs.refusedByPolicy).toEqual([]);
    expect(docs.pageErrors).toEqual([]);
  });
});
