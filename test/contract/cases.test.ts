// The case derivation itself: every derived negative case is one ajv rejects on a body ajv accepts
// without the change, and a constraint added to the document yields new cases with no new test code.
import { describe, expect, it } from "vitest";
import { document } from "../support/document.js";
import { deriveCases, listOperations, type ContractCase } from "./cases.js";

const titles = (cases: ContractCase[], operationId: string) => cases.filter((c) => c.operationId === operationId).map((c) => `${c.kind}: ${c.title}`);

describe("contract case derivation", () => {
  const { cases, notDerivable } = deriveCases(document);

  it("breaks every constraint it finds with a request the document really forbids", () => {
    // deriveCases throws when a base body is invalid; a change ajv accepts lands here.
    expect(notDerivable).toEqual([]);
  });

  it("gives every operation a valid request and a request without X-Api-Key", () => {
    for (const { operationId, op } of listOperations(document)) {
      const mine = titles(cases, operationId);
      expect(mine.some((t) => t.startsWith("valid:")), operationId).toBe(true);
      expect(mine, operationId).toContain("unauthorized: no X-Api-Key: 401");
      if (op.requestBody) {
        expect(mine, operationId).toContain("malformed-json: malformed JSON body");
        expect(mine, operationId).toContain("wrong-content-type: body sent as text/plain");
      }
    }
  });

  it("covers a constraint added to the document later", () => {
    const changed = structuredClone(document);
    // A new bound on an existing body field, a new closed nested object with a required field,
    // and a new query parameter with an enum.
    changed.components.schemas.ListenerPatch.properties.version = { type: "string", maxLength: 5 };
    changed.components.schemas.ListenerPatch.properties.owner = {
      type: "object",
      additionalProperties: false,
      required: ["team"],
      properties: { team: { type: "string", format: "uuid" }, weight: { type: "integer", minimum: 1, maximum: 9 } },
    };
    changed.paths["/v2/listeners"].get.parameters.push({ name: "zone", in: "query", schema: { type: "string", enum: ["eu", "us"] } });
    const derived = deriveCases(changed);
    expect(derived.notDerivable).toEqual([]);
    const before = new Set(titles(cases, "patchListener"));
    const added = titles(derived.cases, "patchListener").filter((t) => !before.has(t));
    expect(added.sort()).toEqual(
      [
        "body: body /version: maxLength",
        "body: body /owner: type object",
        "body: body /owner/team: required team",
        "body: body /owner/not_a_documented_property: unknown property (closed object)",
        "body: body /owner/team: type string",
        "body: body /owner/team: format uuid",
        "body: body /owner/weight: type integer",
        "body: body /owner/weight: minimum",
        "body: body /owner/weight: maximum",
      ].sort(),
    );
    expect(titles(derived.cases, "listListeners")).toContain("parameter: query zone: enum");
    const zone = derived.cases.find((c) => c.title === "query zone: enum");
    expect(zone?.query).toEqual([["zone", "NOT_A_DOCUMENTED_VALUE"]]);
  });

  it("counts", () => {
    const perKind: Record<string, number> = {};
    for (const c of cases) perKind[c.kind] = (perKind[c.kind] ?? 0) + 1;
    console.log(`${cases.length} contract cases derived from generated/openapi.json:`, perKind);
    expect(cases.length).toBeGreaterThan(listOperations(document).length * 2);
  });
});
