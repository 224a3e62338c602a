// The one reading of a schema (viewSchema in src/shared/walk.ts), on each case where the four
// readers it replaced disagreed (the MCP tool schemas, the breaking-change rules, the contract
// suite, the fuzz arbitraries): allOf bounds, integer within number, the nullable wrapper, keywords
// beside a $ref, fields that cannot be sent. The contract suite's view and the fuzz arbitraries'
// flatten are read through it, and must say the same.
import { describe, expect, it } from "vitest";
import { viewSchema } from "../../src/shared/walk.js";
import { flatten } from "../check/fuzz/schema-arbitrary.js";
import { view as contractView } from "../contract/schemas.js";

const doc = {
  components: {
    schemas: {
      Cores: { type: "number", minimum: 0.1, maximum: 16 },
      Small: { type: "object", properties: { n: { type: "integer", minimum: 0 } }, required: ["n"] },
      Untyped: { properties: { a: { type: "string" } } },
      Colour: { type: "string", enum: ["red", "green", "blue"] },
    },
  },
};
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

describe("viewSchema", () => {
  it("allOf takes the tightest bound of every part, whichever comes last", () => {
    const tight = { allOf: [ref("Cores"), { maximum: 8 }, { minimum: 0.5 }, { maximum: 12 }] };
    const v = viewSchema(doc, tight);
    expect([v.minimum, v.maximum]).toEqual([0.5, 8]);
    // The contract suite once let the last part win (maximum 12), the breaking-change rules did not.
    const contract = contractView(doc, tight);
    expect([contract.minimum, contract.maximum]).toEqual([0.5, 8]);
  });

  it("integer is a kind of number: number and integer together allow integer, in either order", () => {
    expect([...viewSchema(doc, { allOf: [{ type: "number" }, { type: "integer" }] }).types!]).toEqual(["integer"]);
    expect([...viewSchema(doc, { allOf: [{ type: "integer" }, { type: "number" }] }).types!]).toEqual(["integer"]);
    expect([...viewSchema(doc, { allOf: [{ type: ["integer", "null"] }, { type: "number" }] }).types!]).toEqual(["integer"]);
    // The fuzz arbitraries once dropped integer here (no type left to draw from).
    expect([...flatten({ allOf: [{ type: "integer" }, { type: "number" }] }).types!]).toEqual(["integer"]);
  });

  it("sees through the nullable wrapper: the named schema's reading, null added, the wrapper marked", () => {
    const v = viewSchema(doc, { anyOf: [ref("Small"), { type: "null" }] });
    expect([...v.types!].sort()).toEqual(["null", "object"]);
    expect(v.name).toBe("Small");
    expect(v.wrapped).toBe(true);
    expect([...v.required]).toEqual(["n"]);
    // A schema that names no type allows null already: it stays untyped.
    expect(viewSchema(doc, { anyOf: [ref("Untyped"), { type: "null" }] }).types).toBeUndefined();
  });

  it("keywords beside a $ref apply too", () => {
    const v = viewSchema(doc, { ...ref("Cores"), maximum: 8, description: "cores" });
    expect([v.minimum, v.maximum]).toEqual([0.1, 8]);
    expect(v.name).toBe("Cores");
  });

  it("a property whose schema is false is forbidden, not listed, even when another part lists it", () => {
    const v = viewSchema(doc, { allOf: [ref("Small")], properties: { n: false }, unevaluatedProperties: false });
    expect(v.properties.has("n")).toBe(false);
    expect(v.forbidden.has("n")).toBe(true);
    expect(v.closed).toBe(true);
    // The document's own case: the request variant forbids the read-only commit sha.
    const request = flatten(ref("SourceRevisionConfigInput"));
    expect(request.properties.has("repo_commit_sha")).toBe(false);
    expect(request.forbidden.has("repo_commit_sha")).toBe(true);
  });

  it("enum values are those every part allows; const is an enum of one", () => {
    expect(viewSchema(doc, { allOf: [ref("Colour"), { enum: ["green", "blue", "pink"] }] }).enum).toEqual(["green", "blue"]);
    expect(viewSchema(doc, { allOf: [ref("Colour"), { const: "red" }] }).enum).toEqual(["red"]);
  });

  it("a property named by several parts keeps each part's schema, all to hold", () => {
    const v = viewSchema(doc, { allOf: [ref("Small"), { properties: { n: { maximum: 9 } } }] });
    expect(v.properties.get("n")).toEqual([{ type: "integer", minimum: 0 }, { maximum: 9 }]);
    const inner = viewSchema(doc, { allOf: v.properties.get("n")! });
    expect([inner.minimum, inner.maximum, [...inner.types!]]).toEqual([0, 9, ["integer"]]);
  });

  it("several non-null branches are a choice left to the reader", () => {
    const v = viewSchema(doc, { oneOf: [ref("Small"), ref("Colour")] });
    expect(v.branches).toHaveLength(2);
    expect(contractView(doc, { oneOf: [ref("Small"), ref("Colour")] }).opaque).toBe(true);
  });
});
