// Field error wording shared by the simulator and the mock's front.
import { describe, expect, it } from "vitest";
import { BODY_REQUIRED_DETAIL, enumDetail, fieldDetail, READ_ONLY_DETAIL, REQUIRED_DETAIL, UNKNOWN_FIELD_DETAIL } from "../../src/local-server/field-details.js";

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
