// How the mock's front reads Prism's answers (src/mock/answers.ts), on violations shaped as
// Prism 5.14 sends them: the cases the HTTP tests reach only with effort (a cut header, items of
// an array parameter, unevaluated properties, Prism's own errors with a stack trace).
import { describe, expect, it } from "vitest";
import { fieldErrorsOf, problemFor, requestViolations, violationsHeader } from "../../src/mock/answers.js";
import { PROBLEM_TYPES } from "../../src/shared/problems.js";

const violation = (location: string[], code: string, message: string) => ({ location: ["request", ...location], severity: "Error", code, message });
const request = { method: "PATCH", path: "/v2/deployments/x", bodyWas: "value" as const };

describe("requestViolations", () => {
  it("keeps the request's errors, not warnings or response violations", () => {
    const violations = [
      violation(["query", "limit"], "maximum", "Request query parameter limit must be <= 100"),
      { ...violation(["query", "offset"], "deprecated", "x"), severity: "Warning" },
      { location: ["response", "body"], severity: "Error", code: "type", message: "Response body must be object" },
    ];
    expect(requestViolations(violations)).toEqual({ list: [expect.objectContaining({ code: "maximum" })], truncated: false });
    expect(requestViolations(undefined)).toBeUndefined();
  });

  it("lists at most MAX_LISTED_VIOLATIONS and says there were more", () => {
    const all = Array.from({ length: 300 }, (_, i) =>
      violation(["body"], "additionalProperties", `Request body must NOT have additional properties; found 'field${i}'`),
    );
    const read = requestViolations(all)!;
    expect(read.truncated).toBe(true);
    expect(read.list.length).toBeGreaterThan(10);
    expect(read.list.length).toBeLessThan(200);
    expect(read.list.at(-1)?.message).toMatch(/found 'field\d+'$/);
  });
});

describe("violationsHeader", () => {
  it("is a valid header value for a field name in any script (Prism's own header threw outside Latin-1)", () => {
    const header = violationsHeader([violation(["body"], "additionalProperties", "Request body must NOT have additional properties; found '名前€'")])!;
    expect(header).toMatch(/^[\x20-\x7e]+$/);
    expect(JSON.parse(header)[0].message).toContain("名前€");
  });

  it("cuts after the last whole violation past 8 KB, as Prism did", () => {
    const all = Array.from({ length: 200 }, (_, i) =>
      violation(["body"], "additionalProperties", `Request body must NOT have additional properties; found 'field${i}'`),
    );
    const header = violationsHeader(all)!;
    expect(header.length).toBeLessThanOrEqual(8 * 1024);
    expect(header.startsWith("Too many violations! ")).toBe(true);
    const kept = JSON.parse(header.slice("Too many violations! ".length));
    expect(kept.length).toBeGreaterThan(10);
    expect(kept.at(-1).message).toMatch(/found 'field\d+'$/);
    expect(violationsHeader([])).toBeUndefined();
  });
});

describe("fieldErrorsOf", () => {
  it("names an item of an array parameter as the simulator does", () => {
    const errors = fieldErrorsOf(
      [violation(["query", "status", "1"], "enum", "Request query parameter status.1 must be equal to one of the allowed values: READY, UNUSED")],
      "value",
    );
    expect(errors).toEqual([{ parameter: "status", code: "enum", detail: 'item 1 must be one of "READY", "UNUSED"' }]);
  });

  it("points at an unknown or unevaluated property and at a missing one", () => {
    const errors = fieldErrorsOf(
      [
        violation(["body", "source_config"], "unevaluatedProperties", "Request body property source_config must NOT have unevaluated properties: 'x/y'"),
        violation(["body", "secrets", "0"], "required", "Request body property secrets.0 must have required property 'value'"),
      ],
      "value",
    );
    expect(errors).toEqual([
      { pointer: "/source_config/x~1y", code: "unknown_field", detail: "is not a field that can be sent here (unknown, read-only or unchangeable)" },
      { pointer: "/secrets/0/value", code: "required", detail: "is required" },
    ]);
  });

  it("drops the echoes of a bad field in a nullable object and a format error beside a type error", () => {
    const errors = fieldErrorsOf(
      [
        violation(["body", "a", "b"], "type", "Request body property a.b must be number"),
        violation(["body", "a"], "type", "Request body property a must be null"),
        violation(["body", "a"], "anyOf", "Request body property a must match a schema in anyOf"),
        violation(["query", "limit"], "type", "Request query parameter limit must be integer"),
        violation(["query", "limit"], "format", 'Request query parameter limit must match format "int32"'),
      ],
      "value",
    );
    expect(errors).toEqual([
      { pointer: "/a/b", code: "type", detail: "must be number" },
      { parameter: "limit", code: "type", detail: "must be integer" },
    ]);
  });
});

describe("problemFor", () => {
  it("lists what it can of a cut header and says the list is partial", () => {
    const problem = problemFor(
      {
        status: 422,
        problem: { type: PROBLEM_TYPES.validation.type },
        violations: { list: [violation(["body"], "additionalProperties", "Request body must NOT have additional properties; found 'a'")], truncated: true },
      },
      request,
    )!;
    expect(problem.detail).toBe("The request has more invalid fields than the mock can list; the first 1 are listed.");
    expect(problem.errors).toEqual([expect.objectContaining({ pointer: "/a", code: "unknown_field" })]);
  });

  it("passes a documented 422 example through when Prism found nothing (Prefer: code=422)", () => {
    expect(problemFor({ status: 422, problem: { type: PROBLEM_TYPES.validation.type }, violations: undefined }, request)).toBeUndefined();
  });

  it("answers Prism's own 500 without its stack trace", () => {
    const problem = problemFor(
      {
        status: 500,
        problem: { type: "https://stoplight.io/prism/errors#UNKNOWN", title: "TypeError: x\n    at f (/home/u/node_modules/a.js:1:2)", detail: "" },
      },
      request,
    )!;
    expect(problem).toMatchObject({ type: PROBLEM_TYPES.internal.type, status: 500 });
    expect(JSON.stringify(problem)).not.toMatch(/node_modules|at f/);
  });

  it("keeps a safe line of Prism's detail and drops one that shows a path", () => {
    const safe = problemFor(
      { status: 406, problem: { type: "https://stoplight.io/prism/errors#NOT_ACCEPTABLE", detail: "Unable to find content for text/html" } },
      request,
    )!;
    expect(safe).toMatchObject({ type: "about:blank", title: "Not Acceptable", status: 406, detail: "Unable to find content for text/html" });
    const leaky = problemFor(
      { status: 406, problem: { type: "https://stoplight.io/prism/errors#NOT_ACCEPTABLE", detail: "cannot read /work/main/x.json" } },
      request,
    )!;
    expect(leaky.detail).toBe("");
  });
});
