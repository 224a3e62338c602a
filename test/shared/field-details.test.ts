// Field error wording shared by the simulator and the mock's front.
import { describe, expect, it } from "vitest";
import {
  BODY_REQUIRED_DETAIL,
  enumDetail,
  fieldDetail,
  READ_ONLY_DETAIL,
  REQUIRED_DETAIL,
  UNKNOWN_FIELD_DETAIL,
  withoutEchoes,
} from "../../src/shared/field-details.js";

describe("fieldDetail", () => {
  it("replaces ajv's words where they name internals", () => {
    expect(fieldDetail("additionalProperties", "must NOT have additional properties")).toBe(UNKNOWN_FIELD_DETAIL);
    expect(fieldDetail("unevaluatedProperties", "must NOT have unevaluated properties")).toBe(UNKNOWN_FIELD_DETAIL);
    expect(fieldDetail("false schema", "boolean schema is false")).toBe(READ_ONLY_DETAIL);
    expect(fieldDetail("required", "must have required property 'name'")).toBe(REQUIRED_DETAIL);
  });

  it("lists enum values as JSON", () => {
    expect(fieldDetail("enum", "must be equal to one of the allowed values", ["READY", 1])).toBe('must be one of "READY", 1');
    expect(enumDetail([])).toBe("must be one of ");
  });

  it("keeps ajv's message otherwise, and the keyword when there is none", () => {
    expect(fieldDetail("maximum", "must be <= 100")).toBe("must be <= 100");
    expect(fieldDetail("enum", "must be equal to one of the allowed values")).toBe("must be equal to one of the allowed values");
    expect(fieldDetail("format", undefined)).toBe("format");
    expect(BODY_REQUIRED_DETAIL).toMatch(/body is required/);
  });
});

describe("withoutEchoes", () => {
  const view = (v: { keyword: string; path: string; nullType?: boolean }) => ({ keyword: v.keyword, path: v.path, expectedNull: v.nullType === true });

  it("drops the nullable wrapper's echoes of a violation inside the wrapped object", () => {
    const inside = { keyword: "type", path: "/source_config/resource_spec/cpu" };
    const violations = [
      inside,
      { keyword: "type", path: "/source_config/resource_spec", nullType: true },
      { keyword: "anyOf", path: "/source_config/resource_spec" },
    ];
    expect(withoutEchoes(violations, view)).toEqual([inside]);
  });

  it("keeps the wrapper's own violation when nothing more specific explains it", () => {
    const alone = [
      { keyword: "type", path: "/source_config/resource_spec", nullType: true },
      { keyword: "anyOf", path: "/source_config/resource_spec" },
    ];
    expect(withoutEchoes(alone, view)).toEqual(alone);
  });

  it("drops a format error where the type is already wrong, and keeps it alone", () => {
    const type = { keyword: "type", path: "/limit" };
    expect(withoutEchoes([type, { keyword: "format", path: "/limit" }], view)).toEqual([type]);
    const format = { keyword: "format", path: "/id" };
    expect(withoutEchoes([format], view)).toEqual([format]);
  });
});
