// The pure half of the local-server gate (src/gate/gate.ts): what the mock's front, the
// simulator's node adapter and the simulator's core decide about a request before an operation.
import { describe, expect, it } from "vitest";
import {
  isEmptyBodyText,
  missingApiKeyProblem,
  parseJsonText,
  parseMediaType,
  RouteTable,
  repeatedParameterErrors,
  requestTargetProblem,
  unsupportedMediaType,
  withoutDotSegments,
} from "../../src/gate/gate.js";
import { PROBLEM_TYPES } from "../../src/shared/problems.js";

describe("parseMediaType", () => {
  it.each([
    ["application/json", "application/json"],
    ["Application/JSON; charset=UTF-8", "application/json"],
    ['application/json ; charset="utf-8" ; q=1', "application/json"],
    ["application/merge-patch+json", "application/merge-patch+json"],
    ["", ""],
  ])("reads %j as %j", (header, mediaType) => {
    expect(parseMediaType(header)).toEqual({ mediaType });
  });
  it("reads no header as no media type", () => {
    expect(parseMediaType(undefined)).toEqual({ mediaType: "" });
    expect(parseMediaType(null)).toEqual({ mediaType: "" });
  });
  it.each(["application/json, text/plain", "json", "application/json; charset", "application/json;charset=a b", "a/b/c", "/json", 'a/b; x="unclosed'])(
    "refuses %j: not one media type",
    (header) => {
      expect(parseMediaType(header)).toEqual({ invalid: true });
    },
  );
});

describe("unsupportedMediaType", () => {
  const listed = ["application/json"];
  it("lets a listed media type through, with parameters", () => {
    expect(unsupportedMediaType(listed, "application/json; charset=utf-8", "/p")).toBeUndefined();
  });
  it("answers 415 naming what to send, for another type and for a header that is not one media type", () => {
    expect(unsupportedMediaType(listed, "text/plain", "/p")).toMatchObject({
      type: PROBLEM_TYPES["unsupported-media-type"].type,
      status: 415,
      detail: "Send the body as application/json, not text/plain.",
    });
    expect(unsupportedMediaType(listed, "application/json, text/plain", "/p")?.status).toBe(415);
  });
  it("answers 415 without a Content-Type (a server sends it only when the body is not empty)", () => {
    expect(unsupportedMediaType(listed, undefined, "/p")).toMatchObject({ status: 415, detail: "Send the body as application/json." });
  });
});

describe("parseJsonText", () => {
  it("ignores a leading byte-order mark, as RFC 8259 allows", () => {
    expect(parseJsonText('\uFEFF{"a":1}', "/p")).toEqual({ value: { a: 1 } });
    expect(isEmptyBodyText("\uFEFF \n")).toBe(true);
    expect(isEmptyBodyText(" x ")).toBe(false);
  });
  it("answers malformed JSON with 400 malformed-json and the parser's message", () => {
    const read = parseJsonText("{oops", "/p");
    expect("problem" in read && read.problem).toMatchObject({
      type: PROBLEM_TYPES["malformed-json"].type,
      status: 400,
      errors: [{ pointer: "", code: "invalid_json", detail: "is not valid JSON" }],
    });
    // A byte-order mark anywhere else is a character like any other.
    expect("problem" in parseJsonText('{"a":1}\uFEFF', "/p")).toBe(true);
  });
});

describe("RouteTable", () => {
  const table = new RouteTable([
    { method: "patch", path: "/v2/deployments/{deployment_id}", value: "patch" },
    { method: "get", path: "/v2/deployments/{deployment_id}", value: "get" },
    { method: "get", path: "/v2/deployments", value: "list" },
  ]);
  it("matches a template, decoding the parameter; HEAD as GET", () => {
    expect(table.match("/v2/deployments/a%20b", "GET")).toEqual({ found: true, value: "get", pathValues: { deployment_id: "a b" } });
    expect(table.match("/v2/deployments", "HEAD")).toMatchObject({ found: true, value: "list" });
  });
  it("answers 404 for a path no template takes (an empty segment included), 405 with Allow in order for a method", () => {
    expect(table.match("/v2/deployments/", "GET")).toMatchObject({ found: false, problem: { status: 404 } });
    expect(table.match("/v2/nope", "GET")).toMatchObject({ found: false, problem: { status: 404, detail: "There is no operation at /v2/nope." } });
    expect(table.match("/v2/deployments/x", "DELETE")).toEqual({
      found: false,
      problem: expect.objectContaining({ status: 405, detail: "DELETE is not allowed on /v2/deployments/x; allowed: GET, PATCH." }),
      headers: { allow: "GET, PATCH" },
    });
  });
  it("answers OPTIONS (not a preflight) with the path's Allow, and 404 for a path no template takes", () => {
    expect(table.match("/v2/deployments/x", "OPTIONS")).toEqual({ found: false, options: true, headers: { allow: "GET, PATCH" } });
    expect(table.match("/v2/deployments", "OPTIONS")).toEqual({ found: false, options: true, headers: { allow: "GET" } });
    expect(table.match("/v2/nope", "OPTIONS")).toMatchObject({ found: false, problem: { status: 404 } });
  });
});

describe("withoutDotSegments", () => {
  it("removes . and .. segments (a %2e is a dot) as a URL parser does, and leaves the query and other targets as they are", () => {
    const cases: [string, string][] = [
      ["/v2/deployments/../listeners", "/v2/listeners"],
      ["/v2/./deployments/%2E%2e/listeners?x=/../", "/v2/listeners?x=/../"],
      ["/v2/deployments/..", "/v2/"],
      ["/v2/deployments/.", "/v2/deployments/"],
      ["/../../v2/listeners", "/v2/listeners"],
      ["/v2/deployments/.x/..y/%2e%2e%2e", "/v2/deployments/.x/..y/%2e%2e%2e"],
      ["/v2/deployments?limit=1", "/v2/deployments?limit=1"],
      ["*", "*"],
    ];
    for (const [target, expected] of cases) {
      expect(withoutDotSegments(target), target).toBe(expected);
      expect(new URL(target === "*" ? "http://x/*" : `http://x${target}`).pathname + (target.includes("?") ? target.slice(target.indexOf("?")) : "")).toBe(
        target === "*" ? "/*" : expected,
      );
    }
  });
});

describe("repeatedParameterErrors", () => {
  it("names a single-valued parameter given more than once, and leaves lists alone", () => {
    const query = new URLSearchParams("limit=1&limit=2&status=A&status=B&offset=0");
    expect(repeatedParameterErrors(query, ["limit", "offset"])).toEqual([{ parameter: "limit", code: "type", detail: "must be given once, not 2 times" }]);
    expect(repeatedParameterErrors(undefined, ["limit"])).toEqual([]);
  });
});

describe("requestTargetProblem and missingApiKeyProblem", () => {
  it("refuses a target that is not a path and a % that does not decode, with 400", () => {
    for (const target of ["http://evil.example/v2", "*", "/v2/deployments/%E0%A4%A", "/%"]) {
      expect(requestTargetProblem(target)?.type, target).toBe(PROBLEM_TYPES["bad-request"].type);
    }
    expect(requestTargetProblem("/v2/deployments/%F0%9F%98%80?q=%ZZ")).toBeUndefined();
  });
  it("answers 401 for no key or an empty one", () => {
    expect(missingApiKeyProblem(null, "/p")?.status).toBe(401);
    expect(missingApiKeyProblem("", "/p")?.status).toBe(401);
    expect(missingApiKeyProblem("dev", "/p")).toBeUndefined();
  });
});
