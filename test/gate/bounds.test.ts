// The bounds on one request's JSON value: what they refuse, with which code and pointer, and that
// checking never recurses (a value nested 100,000 levels deep is checked without a stack overflow).
import { describe, expect, it } from "vitest";
import { FIELD_ERROR_CODES } from "../../src/shared/problems.js";
import { checkJsonBounds, MAX_BOUNDS_ERRORS, REQUEST_BOUNDS } from "../../src/gate/bounds.js";

function nested(depth: number, leaf: unknown = 1): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

describe("checkJsonBounds", () => {
  it("passes a large realistic deployment body untouched", () => {
    const body = {
      source_config: {
        resource_spec: { cpu: 2, memory_mb: 4096, min_scale: 1, max_scale: 10 },
        containers: Array.from({ length: 50 }, (_, i) => ({
          name: `c${i}`,
          env: Array.from({ length: 100 }, (_, j) => ({ name: `VAR_${j}`, value: "x".repeat(200) })),
          resources: { limits: { cpu: "500m", memory: "1Gi" } },
        })),
      },
      secrets: [{ name: "cert", value: "-".repeat(60_000) }],
    };
    expect(checkJsonBounds(body)).toEqual([]);
    expect(checkJsonBounds(nested(REQUEST_BOUNDS.maxDepth - 1))).toEqual([]);
    expect(checkJsonBounds(Array.from({ length: REQUEST_BOUNDS.maxArrayItems }, () => 0))).toEqual([]);
    expect(checkJsonBounds("x".repeat(REQUEST_BOUNDS.maxStringLength))).toEqual([]);
    for (const scalar of [null, true, 0, -1.5e308, "", 1e308]) expect(checkJsonBounds(scalar)).toEqual([]);
  });

  it("refuses nesting past the bound once, at the first level too deep", () => {
    const errors = checkJsonBounds(nested(REQUEST_BOUNDS.maxDepth + 5));
    expect(errors).toEqual([
      { pointer: "/a".repeat(REQUEST_BOUNDS.maxDepth), code: "too_deep", detail: expect.stringContaining(String(REQUEST_BOUNDS.maxDepth)) },
    ]);
  });

  it("checks a value nested 100,000 levels deep without overflowing the stack", () => {
    const text = "[".repeat(100_000) + "]".repeat(100_000);
    const errors = checkJsonBounds(JSON.parse(text));
    expect(errors).toHaveLength(1);
    expect(errors[0]!.code).toBe("too_deep");
    expect(checkJsonBounds(nested(100_000))[0]!.code).toBe("too_deep");
  });

  it("refuses numbers that are not finite (JSON.parse reads 1e309 as Infinity)", () => {
    const value = JSON.parse('{"source_config":{"resource_spec":{"cpu":1e309,"memory_mb":-1e400}}}');
    expect(checkJsonBounds(value)).toEqual([
      { pointer: "/source_config/resource_spec/cpu", code: "not_finite", detail: "must be a finite number" },
      { pointer: "/source_config/resource_spec/memory_mb", code: "not_finite", detail: "must be a finite number" },
    ]);
    expect(checkJsonBounds([Number.NaN])).toEqual([{ pointer: "/0", code: "not_finite", detail: "must be a finite number" }]);
  });

  it("refuses too long strings, too many items and too many properties, with JSON Pointers escaped", () => {
    const value = {
      "a/b~c": "x".repeat(REQUEST_BOUNDS.maxStringLength + 1),
      list: Array.from({ length: REQUEST_BOUNDS.maxArrayItems + 1 }, () => 0),
      map: Object.fromEntries(Array.from({ length: REQUEST_BOUNDS.maxProperties + 1 }, (_, i) => [`k${i}`, i])),
      ["k".repeat(REQUEST_BOUNDS.maxStringLength + 1)]: 1,
    };
    const errors = checkJsonBounds(value);
    expect(errors.map((e) => [e.pointer, e.code])).toEqual([["", "max_length"]]);
    const { ["k".repeat(REQUEST_BOUNDS.maxStringLength + 1)]: _long, ...rest } = value;
    expect(checkJsonBounds(rest).map((e) => [e.pointer, e.code])).toEqual([
      ["/a~1b~0c", "max_length"],
      ["/list", "max_items"],
      ["/map", "max_properties"],
    ]);
  });

  it("lists at most MAX_BOUNDS_ERRORS violations", () => {
    const errors = checkJsonBounds(Array.from({ length: 500 }, () => Number.POSITIVE_INFINITY));
    expect(errors).toHaveLength(MAX_BOUNDS_ERRORS);
    expect(errors[0]!.pointer).toBe("/0");
  });

  it("uses only field error codes the document defines", () => {
    const value = {
      deep: nested(40),
      inf: Infinity,
      s: "x".repeat(70_000),
      l: new Array(1001).fill(0),
      m: Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [i, i])),
    };
    const codes = checkJsonBounds(value).map((e) => e.code);
    expect(codes.sort()).toEqual(["max_items", "max_length", "max_properties", "not_finite", "too_deep"]);
    for (const code of codes) expect(FIELD_ERROR_CODES).toContain(code);
  });

  it("takes other bounds", () => {
    expect(checkJsonBounds({ a: [1, 2, 3] }, { ...REQUEST_BOUNDS, maxArrayItems: 2 })).toEqual([
      { pointer: "/a", code: "max_items", detail: "must NOT have more than 2 items" },
    ]);
  });
});
