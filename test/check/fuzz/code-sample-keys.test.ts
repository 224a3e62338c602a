// Generated code samples (the docs page's x-codeSamples and the "Try it" console's client call, both
// written by src/docs-console/code-samples.ts) write JSON bodies as object literals. Each is
// evaluated here: the value it builds must be the body, member for member. Keys are drawn to include
// `__proto__` (which a plain `__proto__:` or `"__proto__":` turns into the prototype), other
// Object.prototype names, keys that are not identifiers, and any string.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { literal } from "../../../src/docs-console/code-samples.js";
import { asClientCall, operationSpecs } from "../../../src/docs-console/requests.js";
import { document } from "../../support/document.js";
import { budget } from "./budget.js";

const KEYS = fc.oneof(
  fc.constantFrom("__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "__defineGetter__", "", "1", "a-b", "a b", "$x", "é", "repo_ref"),
  fc.string(),
);

/** JSON values whose objects are built with defineProperty, so `__proto__` is an own member as JSON.parse makes it. */
const json: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null)),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.array(fc.tuple(KEYS, tie("value")), { maxLength: 4 }).map((entries) => {
      const object: Record<string, unknown> = {};
      for (const [k, v] of entries) Object.defineProperty(object, k, { value: v, enumerable: true, writable: true, configurable: true });
      return object;
    }),
  ),
})).value;

/** Evaluates a literal as a program would. */
const evaluate = (source: string): unknown => new Function(`return (${source});`)();

describe("a JSON body written as an object literal evaluates to the same body", () => {
  it("src/docs-console/code-samples.ts (the page's samples and the console's client call)", () => {
    fc.assert(
      fc.property(json, (value) => {
        const back = evaluate(literal(value));
        expect(JSON.stringify(back)).toBe(JSON.stringify(value));
      }),
      budget(300, 0.02),
    );
    const withProto = JSON.parse('{"__proto__":{"polluted":true},"name":"n"}');
    const back = evaluate(literal(withProto)) as Record<string, unknown>;
    expect(Object.keys(back)).toEqual(["__proto__", "name"]);
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
  });

  it("the console's whole TypeScript sample, run with a stand-in client, sends the body given", async () => {
    const spec = operationSpecs(document as never).find((s) => s.method === "PATCH")!;
    const values = Object.fromEntries(spec.parameters.map((p) => [p.name, p.initial ?? ""]));
    const bodies = ['{"__proto__":{"x":1},"source_revision_config":{"repo_ref":"main"}}', '{"constructor":"c","a-b":[{"__proto__":null}]}'];
    for (const body of bodies) {
      const source = asClientCall({ spec, values, body }, "http://127.0.0.1:4011");
      let sent: unknown;
      const client = {
        [spec.method]: async (_path: string, options: { body?: unknown }) => {
          sent = options.body;
          return { data: {}, response: new Response("{}") };
        },
      };
      // The sample's import becomes parameters; its top-level await runs in an async function.
      const program = source.replace(/^import .*\n/m, "");
      const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...args: string[]) => (...a: unknown[]) => Promise<unknown>;
      await new AsyncFunction("createDeploymentsClient", "unwrap", program)(
        () => client,
        (r: { data: unknown }) => r.data,
      );
      expect(JSON.stringify(sent)).toBe(JSON.stringify(JSON.parse(body)));
    }
  });
});
