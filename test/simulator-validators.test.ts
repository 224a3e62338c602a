// The validators compiled at build time (generated/validators.js, ajv standalone code) against
// the ones ajv compiles at run time from the same document: one validator for every parameter and
// request body of every operation, and for each of them the same verdict and the same error
// objects on the document's examples and on broken copies of them.
import { describe, expect, it } from "vitest";
import { compiledValidator, VALIDATOR_KEYS } from "../generated/validators.js";
import { deref, listOperations } from "../src/shared/walk.js";
import { createOpenApiValidator } from "./support/openapi-validator.js";
import { document } from "./support/document.js";

const runtime = createOpenApiValidator(document);

interface Target {
  key: string;
  schema: object;
  /** Values the document gives for this parameter or body. */
  examples: unknown[];
}

/** Every `example`, `examples` (list or map of Example objects) and `default` at this node. */
function examplesAt(node: any): unknown[] {
  const n = deref(document, node);
  if (!n || typeof n !== "object") return [];
  const out: unknown[] = [];
  if ("example" in n) out.push(n.example);
  if ("default" in n) out.push(n.default);
  if (Array.isArray(n.examples)) out.push(...n.examples);
  else if (n.examples && typeof n.examples === "object") for (const e of Object.values(n.examples)) out.push(deref<any>(document, e).value);
  if (Array.isArray(n.enum)) out.push(...n.enum);
  return out;
}

function targets(): Target[] {
  const out: Target[] = [];
  for (const { operationId, operation, parameters } of listOperations(document)) {
    for (const p of parameters) {
      const schema = p.schema ?? {};
      const items = deref<any>(document, schema).items;
      out.push({
        key: `parameter:${operationId}:${p.in}:${p.name}`,
        schema,
        examples: [...examplesAt(p), ...examplesAt(schema), ...(items ? examplesAt(items).map((v) => [v]) : [])],
      });
    }
    if (operation.requestBody) {
      const content = deref<any>(document, operation.requestBody).content ?? {};
      const media = content[Object.keys(content)[0] ?? ""] ?? {};
      out.push({ key: `body:${operationId}`, schema: media.schema ?? {}, examples: [...examplesAt(media), ...examplesAt(media.schema)] });
    }
  }
  return out;
}

// Values that break most fields in some way: wrong types, out of range, not in an enum, bad formats.
const REPLACEMENTS: unknown[] = [null, true, 3.5, -1, 2 ** 53, "", "not a valid 😀 value", "2026-13-45T99:00:00Z", {}, [], [1, "x"], { unknown_field: 1 }];

/** Broken copies of a value: each leaf and each object or array replaced, each key removed, an unknown key added. */
function brokenCopies(value: unknown): unknown[] {
  const out: unknown[] = REPLACEMENTS.map((r) => structuredClone(r));
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      for (const broken of brokenCopies(item)) out.push(value.map((v, j) => (j === i ? broken : v)));
    });
    out.push([...value, ...value]);
  } else if (value && typeof value === "object") {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const { [key]: _removed, ...rest } = record;
      out.push(rest);
      for (const broken of brokenCopies(record[key])) out.push({ ...record, [key]: broken });
    }
    out.push({ ...record, not_in_the_document: "x" });
  }
  return out;
}

/** What a validator says about a value: the verdict and ajv's error objects. */
function verdict(validate: { (data: unknown): boolean; errors?: unknown }, value: unknown) {
  const valid = validate(structuredClone(value));
  return { valid, errors: valid ? null : validate.errors };
}

describe("generated/validators.js (ajv standalone code)", () => {
  const all = targets();

  it("has one validator for every parameter and request body of every operation, under the keys the simulator uses", () => {
    expect(all.length).toBeGreaterThan(10);
    expect([...VALIDATOR_KEYS].sort()).toEqual(all.map((t) => t.key).sort());
  });

  it("an unknown key is an error that says what to do, not undefined", () => {
    expect(() => compiledValidator("body:noSuchOperation")).toThrow(/no compiled validator "body:noSuchOperation".*npm run build/);
  });

  it("creates no function from text when it loads (runs under a Content-Security-Policy without 'unsafe-eval')", async () => {
    const { readFile } = await import("node:fs/promises");
    const source = await readFile(new URL("../generated/validators.js", import.meta.url), "utf8");
    expect(source).not.toMatch(/new Function|\beval\(|\brequire\(|^import |^export \* from/m);
  });

  for (const target of all) {
    it(`${target.key}: same verdicts and errors as ajv compiled at run time, on the examples and broken copies`, () => {
      const compiled = compiledValidator(target.key);
      const reference = runtime.validatorFor(target.schema, `reference ${target.key}`);
      const inputs = [...target.examples, ...target.examples.flatMap(brokenCopies)];
      if (inputs.length === 0) inputs.push(...REPLACEMENTS);
      let valid = 0;
      let invalid = 0;
      for (const input of inputs) {
        const expected = verdict(reference, input);
        expect(verdict(compiled, input), JSON.stringify(input)).toEqual(expected);
        if (expected.valid) valid++;
        else invalid++;
      }
      // Both outcomes are exercised: the examples pass and the broken copies fail.
      if (target.examples.length > 0) expect(valid).toBeGreaterThan(0);
      expect(invalid).toBeGreaterThan(0);
    });
  }
});
