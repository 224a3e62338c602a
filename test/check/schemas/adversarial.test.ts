// Every Standard Schema of deployment-management-api/schemas against adversarial values drawn
// from the document itself: for each schema and each property it names (three levels down, array
// items too), the wrong types, null, the bounds the document sets and one past them, keys that
// name Object.prototype members (`__proto__`, `constructor`, parsed from JSON as a server's body
// would be) and keys with the JSON Pointer's own characters. The validator must never throw, a
// failure must carry at least one issue, and every issue's path must lead, own property by own
// property, to the value it names (the last segment may be missing for "is required").
import { describe, expect, it } from "vitest";
import * as schemas from "../../../src/schemas/index.js";
import { boundsOf, viewSchema } from "../../../src/shared/walk.js";
import { document } from "../../support/document.js";

const own = (node: unknown, key: PropertyKey) => node !== null && typeof node === "object" && Object.hasOwn(node, key);

/** Values of every JSON type and the keys that name what an object inherits. */
const anyValues = (): unknown[] => [
  null,
  true,
  "",
  "x",
  "__proto__",
  0,
  -1,
  2 ** 31,
  1.5,
  1e308,
  -1e308,
  [],
  {},
  [null],
  JSON.parse('{"__proto__":{"polluted":1}}'),
  JSON.parse('{"constructor":{"prototype":1}}'),
  { "a/b~c": 1, "~1": 2 },
];

function* adversarial(raw: unknown, depth = 0): Generator<unknown> {
  yield* anyValues();
  if (depth > 2) return;
  const view = viewSchema(document, raw as object);
  for (const [name, parts] of view.properties) {
    for (const value of anyValues()) yield { [name]: value };
    for (const part of parts) {
      const bounds = Object.values(boundsOf(viewSchema(document, part as object))).filter((b): b is number => typeof b === "number");
      for (const bound of bounds) for (const delta of [-1, 0, 0.5, 1]) yield { [name]: bound + delta };
      for (const inner of adversarial(part, depth + 1)) {
        if (inner !== null && typeof inner === "object") {
          yield { [name]: inner };
          yield { [name]: [inner] };
        }
      }
    }
  }
}

const names = Object.keys((document as { components: { schemas: object } }).components.schemas);

describe("every schema against adversarial values from the document", () => {
  it.each(names)("%s: never throws; every failure has issues whose paths lead to the value", (name) => {
    const validate = (schemas as unknown as Record<string, schemas.DmsSchema<unknown>>)[name]!["~standard"].validate;
    const wrong: string[] = [];
    let failures = 0;
    for (const value of adversarial((document as any).components.schemas[name])) {
      const shown = JSON.stringify(value).slice(0, 100);
      let result: ReturnType<typeof validate>;
      try {
        result = validate(value);
      } catch (error) {
        wrong.push(`${shown}: threw ${(error as Error).message}`);
        continue;
      }
      if (result.issues === undefined) continue;
      failures++;
      if (result.issues.length === 0) wrong.push(`${shown}: a failure without issues`);
      for (const issue of result.issues) {
        if (typeof issue.message !== "string" || issue.message === "" || /undefined|\[object /.test(issue.message)) {
          wrong.push(`${shown}: message ${JSON.stringify(issue.message)}`);
        }
        let node: unknown = value;
        const path = (issue.path ?? []) as PropertyKey[];
        for (const [i, segment] of path.entries()) {
          if (own(node, segment)) {
            node = (node as Record<PropertyKey, unknown>)[segment];
            continue;
          }
          const missingRequired = i === path.length - 1 && issue.message === "is required" && node !== null && typeof node === "object";
          if (!missingRequired) wrong.push(`${shown}: path ${JSON.stringify(path)} does not lead to the value (${issue.message})`);
          break;
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(failures).toBeGreaterThan(0);
  });

  it("an unknown key named __proto__ in a closed object is an issue at that key, not a change of prototype", () => {
    const result = schemas.DeploymentPatch["~standard"].validate(JSON.parse('{"secrets":[{"name":"A","value":"b","__proto__":{"x":1}}]}'));
    expect(result.issues).toEqual([
      { path: ["secrets", 0, "__proto__"], message: "is not a field that can be sent here (unknown, read-only or unchangeable)" },
    ]);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});
