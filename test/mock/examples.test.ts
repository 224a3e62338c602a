// One id, one resource: the mock answers a GET by one of the document's example ids with that
// example, and a list page never holds more than `limit` items, its `offset` following the paging
// rule. Cases come from the document's examples; real HTTP against the front `npm start` serves.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningMock, startMock } from "../../src/mock/front.js";
import { deref, operations } from "../support/document.js";
import { KEY, raw } from "./support.js";

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(async () => {
  await mock.close();
});

interface ExampleCase {
  name: string;
  path: string;
  value: Record<string, unknown>;
}

/** Every named 200 example of a GET of one resource, with the path that names it by its id. */
function examplesById(): ExampleCase[] {
  const cases: ExampleCase[] = [];
  for (const { path, method, op } of operations()) {
    if (method.toLowerCase() !== "get") continue;
    const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
    const last = names.at(-1);
    if (!last || !path.endsWith(`{${last}}`)) continue;
    const examples = deref(op.responses?.["200"])?.content?.["application/json"]?.examples ?? {};
    for (const [name, example] of Object.entries(examples)) {
      const value = deref<{ value?: Record<string, unknown> }>(example).value;
      const id = value && (last in value ? value[last] : value.id);
      if (!value || typeof id !== "string") continue;
      // The other path parameters: any value of the right shape (the mock keeps no state).
      const filled = path.replace(/\{([^}]+)\}/g, (_, param: string) => (param === last ? encodeURIComponent(id) : "3fa85f64-5717-4562-b3fc-2c963f66afa6"));
      cases.push({ name, path: filled, value });
    }
  }
  return cases;
}

describe("a GET by an example's id", () => {
  const cases = examplesById();

  it("has cases: the document names resources by id in its examples", () => {
    expect(cases.length).toBeGreaterThanOrEqual(4);
  });

  it.each(cases.map((c) => [c.name, c] as const))("answers example %s for its id", async (_name, c) => {
    const answer = await raw(mock.baseUrl, { path: c.path, headers: KEY });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json()).toEqual(c.value);
  });

  it("finds the example for an id in upper case (a UUID in any case is one id)", async () => {
    const id = "e1d7b3a9-6c2f-4e5b-8a1d-3f9c7b2e4a60";
    const answer = await raw(mock.baseUrl, { path: `/v2/deployments/${id.toUpperCase()}`, headers: KEY });
    expect(answer.json().id).toBe(id);
  });

  it("answers the first example for an id no example has, and Prefer still picks another", async () => {
    const other = await raw(mock.baseUrl, { path: "/v2/deployments/00000000-0000-4000-8000-000000000000", headers: KEY });
    expect(other.status).toBe(200);
    const chosen = await raw(mock.baseUrl, {
      path: "/v2/deployments/e1d7b3a9-6c2f-4e5b-8a1d-3f9c7b2e4a60",
      headers: { ...KEY, prefer: "example=DeploymentExternalDocker" },
    });
    expect(chosen.json().source).toBe("external_docker");
  });
});

describe("list pages within limit", () => {
  it("never lists more items than limit, on every list", async () => {
    for (const path of ["/v2/deployments", "/v2/listeners", "/v2/deployments/e1d7b3a9-6c2f-4e5b-8a1d-3f9c7b2e4a60/revisions"]) {
      for (const limit of [1, 2, 3]) {
        const page = (await raw(mock.baseUrl, { path: `${path}?limit=${limit}`, headers: KEY })).json();
        expect(page.resources.length, `${path}?limit=${limit}`).toBeLessThanOrEqual(limit);
        expect(page.offset).toBe(page.resources.length);
      }
    }
  });

  it("pages through the example as a client's paging loop does: offset = request offset + items, a short page last", async () => {
    const whole = (await raw(mock.baseUrl, { path: "/v2/deployments", headers: KEY })).json();
    expect(whole.resources.length).toBeGreaterThan(2);
    const seen: unknown[] = [];
    let offset = 0;
    for (let pages = 0; pages < 10; pages++) {
      const page = (await raw(mock.baseUrl, { path: `/v2/deployments?limit=2&offset=${offset}`, headers: KEY })).json();
      expect(page.offset).toBe(offset + page.resources.length);
      seen.push(...page.resources);
      offset = page.offset;
      if (page.resources.length < 2) break;
    }
    expect(seen).toEqual(whole.resources);
  });

  it("answers an offset past the example with an empty page whose offset stays valid (int32)", async () => {
    const page = (await raw(mock.baseUrl, { path: "/v2/listeners?limit=9&offset=2147483647", headers: KEY })).json();
    expect(page).toMatchObject({ resources: [], offset: 2147483647 });
  });
});
