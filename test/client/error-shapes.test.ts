// The client's ApiError reads the simulator's problem+json and the service's own shapes
// (createSimulator({ errors: "service" })) alike: on every error the simulator can answer
// (test/support/error-cases.ts), the status, the detail, the field errors of a 422 (pointer or
// parameter, detail, code), the kind (where the status names one kind) and the hint are the same.
// What only problem+json carries is said here: `type`, `title`, `instance`, and the field errors of
// a status other than 422.
import { describe, expect, it } from "vitest";
import { ApiError } from "../../src/index.js";
import { createSimulator } from "../../src/simulator/core/simulator.js";
import { type ErrorCase, errorCases, requestOf } from "../support/error-cases.js";

const BASE = "https://api.example.test";

async function apiErrorOf(c: ErrorCase, errors: "problem" | "service"): Promise<ApiError> {
  const sim = createSimulator({ stepSeconds: 3600, ...c.options, errors });
  const request = requestOf(c, BASE);
  const response = await sim.fetch(request);
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {}
  return new ApiError(response, body, { request: { method: c.method, url: request.url } });
}

/** What a program reads of an ApiError, whichever shape the server answered in. */
function readable(error: ApiError) {
  return {
    status: error.status,
    method: error.method,
    path: error.path,
    detail: error.detail,
    // Only problem+json can tell the two kinds of 400 apart (malformed-json, bad-request).
    kind: error.status === 400 ? undefined : error.kind,
    errors: error.status === 422 ? error.errors : undefined,
    hint: error.hint,
  };
}

describe("ApiError is the same for problem+json and the service's shapes", () => {
  it.each(errorCases().map((c) => [`${c.status} ${c.name}`, c] as const))("%s", async (_name, c) => {
    const fromProblem = await apiErrorOf(c, "problem");
    const fromService = await apiErrorOf(c, "service");
    expect(fromProblem.status).toBe(c.status);
    expect(readable(fromService)).toEqual(readable(fromProblem));
    if (c.status === 422) expect(fromService.errors.length).toBeGreaterThan(0);
    // What the service's shape has no place for.
    expect(fromService.type).toBeUndefined();
    expect(fromService.instance).toBeUndefined();
  });
});
