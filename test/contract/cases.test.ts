// The case derivation itself: every derived negative case is one ajv rejects on a body ajv accepts
// without the change, and a constraint added to the document yields new cases with no new test code.
import { describe, expect, it } from "vitest";
import { deref, unwrapNullable } from "../../src/shared/walk.js";
import { document } from "../support/document.js";
import { deriveCases, operationsOf, type ContractCase } from "./cases.js";
import { buildRequest } from "./suite.js";

const titles = (cases: ContractCase[], operationId: string) => cases.filter((c) => c.operationId === operationId).map((c) => `${c.kind}: ${c.title}`);

describe("contract case derivation", () => {
  const { cases, notDerivable } = deriveCases(document);

  it("breaks every constraint it finds with a request the document really forbids", () => {
    // deriveCases throws when a base body is invalid; a change ajv accepts lands here.
    expect(notDerivable).toEqual([]);
  });

  it("gives every operation a valid request and a request without X-Api-Key", () => {
    for (const { operationId, operation: op } of operationsOf(document)) {
      const mine = titles(cases, operationId);
      expect(
        mine.some((t) => t.startsWith("valid:")),
        operationId,
      ).toBe(true);
      expect(mine, operationId).toContain("unauthorized: no X-Api-Key: 401");
      if (op.requestBody) {
        expect(mine, operationId).toContain("malformed-json: malformed JSON body");
        expect(mine, operationId).toContain("wrong-content-type: body sent as text/plain");
      }
    }
  });

  it("covers a constraint added to the document later", () => {
    const changed: any = structuredClone(document);
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

  it("derives the 401 case from each operation's security", () => {
    const changed: any = structuredClone(document);
    // One operation open to anonymous callers, and the key moved to another header name.
    changed.paths["/v2/auth/providers"].get.security = [{}, { ApiKey: [] }];
    changed.components.securitySchemes.ApiKey.name = "X-Service-Key";
    const derived = deriveCases(changed).cases;
    expect(titles(derived, "listOAuthProviders").filter((t) => t.startsWith("unauthorized"))).toEqual([]);
    expect(titles(derived, "getOAuthProvider")).toContain("unauthorized: no X-Service-Key: 401");
    const valid = derived.find((c) => c.operationId === "getOAuthProvider" && c.kind === "valid")!;
    const unauthorized = derived.find((c) => c.operationId === "getOAuthProvider" && c.kind === "unauthorized")!;
    const ids = { provider_id: "github" } as any;
    const target = { baseUrl: "http://127.0.0.1:1", apiKey: "the-key", tenantId: "the-tenant" };
    expect(buildRequest(valid, target, ids).init.headers.get("x-service-key")).toBe("the-key");
    expect(buildRequest(valid, target, ids).init.headers.get("x-tenant-id")).toBe("the-tenant");
    expect(buildRequest(unauthorized, target, ids).init.headers.get("x-service-key")).toBeNull();
  });

  it("sends header parameters: a valid value in every request, a broken one in its own cases", () => {
    const changed: any = structuredClone(document);
    changed.paths["/v2/listeners"].get.parameters.push({
      name: "X-Request-Mode",
      in: "header",
      required: true,
      schema: { type: "string", enum: ["fast", "safe"] },
    });
    const derived = deriveCases(changed).cases.filter((c) => c.operationId === "listListeners");
    const mode = (c: ContractCase) => buildRequest(c, { baseUrl: "http://127.0.0.1:1", apiKey: "k" }, {} as any).init.headers.get("x-request-mode");
    const byTitle = new Map(derived.map((c) => [`${c.kind}: ${c.title}`, c]));
    expect(mode(byTitle.get("parameter: header X-Request-Mode: enum")!)).toBe("NOT_A_DOCUMENTED_VALUE");
    expect(mode(byTitle.get("parameter: header X-Request-Mode: required")!)).toBeNull();
    for (const c of derived.filter((c) => !c.title.startsWith("header X-Request-Mode"))) expect(mode(c), c.title).toBe("fast");
  });

  it("counts: every kind of case, against counts derived from the document on their own", () => {
    const perKind: Record<string, number> = {};
    for (const c of cases) perKind[c.kind] = (perKind[c.kind] ?? 0) + 1;
    console.log(`${cases.length} contract cases derived from generated/openapi.json:`, perKind);

    // Counted here straight from the document, without the derivation's code.
    const expected = { valid: 0, unauthorized: 0, "malformed-json": 0, "wrong-content-type": 0 };
    const parameterTargets: string[] = [];
    const bodyTargets: string[] = [];
    for (const [_path, item] of Object.entries<any>(document.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        if (method === "parameters" || typeof op !== "object" || !op.operationId) continue;
        const parameters = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p) => deref(document, p));
        const media = op.requestBody ? deref(document, op.requestBody).content?.["application/json"] : undefined;
        const examples = media ? Object.keys(media.examples ?? {}).length + (media.example !== undefined ? 1 : 0) : 0;
        expected.valid += Math.max(examples, 1) + (parameters.some((p) => p.in === "query") ? 1 : 0);
        const security: object[] = op.security ?? document.security ?? [];
        if (security.length > 0 && security.every((alternative) => Object.keys(alternative).length > 0)) expected.unauthorized++;
        if (op.requestBody) {
          expected["malformed-json"]++;
          expected["wrong-content-type"]++;
        }
        for (const p of parameters) if (constrains(deref(document, p.schema ?? {}))) parameterTargets.push(`${op.operationId} ${p.in} ${p.name}`);
        if (media) for (const pointer of typedFields(media.schema)) bodyTargets.push(`${op.operationId} ${pointer}`);
      }
    }
    for (const [kind, count] of Object.entries(expected)) expect(perKind[kind] ?? 0, `${kind} cases`).toBe(count);

    // Every constrained parameter and every typed body field is broken by at least one case.
    const parameterCases = new Set(cases.filter((c) => c.kind === "parameter").map((c) => `${c.operationId} ${c.title.slice(0, c.title.indexOf(":"))}`));
    expect(
      parameterTargets.filter((t) => !parameterCases.has(t)),
      "parameters no case breaks",
    ).toEqual([]);
    const bodyCases = new Set(
      cases
        .filter((c) => c.kind === "body" && !c.expect.success && c.expect.field && "pointer" in c.expect.field)
        .map((c) => `${c.operationId} ${(c.expect as any).field.pointer}`),
    );
    expect(bodyTargets.length).toBeGreaterThan(0);
    expect(
      bodyTargets.filter((t) => !bodyCases.has(t)),
      "body fields no case breaks",
    ).toEqual([]);
    expect(perKind.parameter ?? 0).toBeGreaterThanOrEqual(parameterTargets.length);
    expect(perKind.body ?? 0).toBeGreaterThanOrEqual(bodyTargets.length);
  });
});

/** Whether a parameter schema says anything a value can break. */
function constrains(schema: any): boolean {
  const s = unwrapNullable(document, schema).schema;
  const item = s.type === "array" && s.items ? unwrapNullable(document, s.items).schema : s;
  return (
    ["enum", "format", "minimum", "maximum", "minLength", "maxLength", "pattern"].some((k) => item[k] !== undefined) ||
    (item.type !== undefined && item.type !== "string")
  );
}

/** JSON Pointers of the typed, writable fields of a request body schema (array items as /0), a few levels deep. */
function typedFields(root: any): string[] {
  const out: string[] = [];
  const visit = (raw: any, pointer: string, depth: number) => {
    if (depth > 6) return;
    const { schema } = unwrapNullable(document, raw);
    const parts = [schema, ...(schema.allOf ?? []).map((p: any) => unwrapNullable(document, p).schema)];
    const properties = new Map<string, any[]>();
    for (const part of parts)
      for (const [name, sub] of Object.entries<any>(part.properties ?? {})) properties.set(name, [...(properties.get(name) ?? []), sub]);
    for (const [name, subs] of properties) {
      if (subs.some((sub) => sub === false || deref(document, sub)?.readOnly)) continue;
      const own = subs.map((sub) => unwrapNullable(document, sub).schema);
      const typed = own.some((sub) => sub.type !== undefined);
      const opaque = own.some((sub) => (sub.oneOf ?? sub.anyOf) !== undefined);
      const field = `${pointer}/${name}`;
      if (typed && !opaque) out.push(field);
      for (const sub of subs) visit(sub, field, depth + 1);
      const array = own.find((sub) => sub.type === "array" || (Array.isArray(sub.type) && sub.type.includes("array")));
      if (array?.items) visit(array.items, `${field}/0`, depth + 1);
    }
  };
  visit(root, "", 0);
  return [...new Set(out)];
}
