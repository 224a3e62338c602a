// Generated cases (fast-check, seeded) for the two functions every dms line goes through:
// terminalSafe leaves no character a terminal acts on, and keeps every other one; the Masker
// changes nothing but what a server quotes back and secrets where they are secrets.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonSafe, terminalSafe } from "../../src/cli/terminal-text.js";
import { MASKED, Masker } from "../../src/shared/mask.js";

const CONTROL =
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const anyText = fc.string({ unit: "binary", maxLength: 60 });

describe("terminalSafe and jsonSafe", () => {
  it("no control, separator or bidi character survives; the rest is unchanged", () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const safe = terminalSafe(text);
        expect(safe).not.toMatch(CONTROL);
        if (!CONTROL.test(text)) expect(safe).toBe(text);
        const json = jsonSafe(JSON.stringify({ text }));
        expect(json).not.toMatch(CONTROL);
        expect(JSON.parse(json)).toEqual({ text });
        // Text and --json show a lone surrogate alike, as an escape (not as U+FFFD).
        if (/^[\uD800-\uDFFF]$/.test(text)) expect(safe.toLowerCase()).toBe(json.slice(9, -2).toLowerCase());
      }),
      { numRuns: 500, seed: 19 },
    );
  });
});

describe("a lone surrogate", () => {
  it.each([
    ["a\ud800b", "a\\uD800b"],
    ["\udfff", "\\uDFFF"],
    ["\udc00\ud800", "\\uDC00\\uD800"],
    ["pair 😀 kept", "pair 😀 kept"],
  ])("%j shows as %s, as --json writes it", (text, shown) => {
    expect(terminalSafe(text)).toBe(shown);
    expect(terminalSafe(text).toLowerCase()).toBe(JSON.stringify(text).slice(1, -1).toLowerCase());
  });
});

describe("Masker (src/shared/mask.ts, the one rule of dms and the MCP server)", () => {
  const uuid = fc.uuid();
  const word = fc.stringMatching(/^[A-Za-z0-9]{1,20}$/);
  it("quoted(): a value of any length is masked in a server's text wherever it stands whole, and nothing else changes", () => {
    fc.assert(
      fc.property(word, uuid, (value, id) => {
        fc.pre(!id.includes(value));
        const masker = new Masker({ keys: [value] });
        expect(masker.quoted(`id ${id}: "${value}" rejected (${value})`)).toBe(`id ${id}: "${MASKED}" rejected (${MASKED})`);
        expect(masker.quoted(`${value}x ${value}_y dev-${value}`)).toBe(`${value}x ${value}_y dev-${value}`);
      }),
      { numRuns: 300, seed: 19 },
    );
  });

  it("data(): secrets[].value and a header echo of the key are hidden; names and values equal to the key or a secret stay", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 12 }), fc.string({ minLength: 1, maxLength: 12 }), uuid, (secret, key, id) => {
        fc.pre(
          secret !== key &&
            secret !== id &&
            key !== id &&
            ![secret, key].some((v) => ["id", "deployment_type", "secrets", "echo", "A", "note", "X-Api-Key"].includes(v)),
        );
        const masker = new Masker({ keys: [key], secrets: [secret] });
        const data = { id, [secret]: key, deployment_type: key, secrets: [{ name: "A", value: id }], echo: { "X-Api-Key": key, note: secret }, [key]: 1 };
        const seen = masker.data(data);
        expect(seen).toEqual({
          id,
          [secret]: key,
          deployment_type: key,
          secrets: [{ name: "A", value: MASKED }],
          echo: { "X-Api-Key": MASKED, note: secret },
          [key]: 1,
        });
      }),
      { numRuns: 300, seed: 19 },
    );
  });

  it("problem(): every string of an error body is quoted(); error(): a copy of the same class with the server's words masked", () => {
    const masker = new Masker({ keys: ["dev"], secrets: ["s3cr3t"] });
    expect(masker.problem({ detail: "key dev and s3cr3t refused", errors: [{ value: "s3cr3t", code: "device" }], headers: { dev: true } })).toEqual({
      detail: "key *** and *** refused",
      errors: [{ value: "***", code: "device" }],
      headers: { [MASKED]: true },
    });
    class Failure extends Error {
      readonly detail = "the key dev is refused";
      readonly path = "/v2/dev";
    }
    const seen = masker.error(new Failure("dev failed"));
    expect(seen).toBeInstanceOf(Failure);
    expect([seen.message, seen.detail, seen.path]).toEqual(["*** failed", "the key *** is refused", "/v2/dev"]);
  });

  it("data() keeps a member named __proto__ a member", () => {
    const data = JSON.parse('{"__proto__":{"polluted":true},"name":"n"}');
    const seen = new Masker().data(data) as Record<string, unknown>;
    expect(JSON.stringify(seen)).toBe('{"__proto__":{"polluted":true},"name":"n"}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
