// Generated cases (fast-check, seeded) for the two functions every dms line goes through:
// terminalSafe leaves no character a terminal acts on, and keeps every other one; the Redactor
// changes nothing but whole occurrences of long secrets, and JSON stays the same JSON.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MIN_MASKED_LENGTH, REDACTED, Redactor } from "../../src/cli/redact.js";
import { jsonSafe, terminalSafe } from "../../src/cli/terminal-text.js";

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
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
      }),
      { numRuns: 500, seed: 19 },
    );
  });
});

describe("Redactor", () => {
  const uuid = fc.uuid();
  it("short values never change text; ids and words around a value are left alone", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: MIN_MASKED_LENGTH - 1 }), fc.array(uuid, { maxLength: 4 }), (secret, ids) => {
        const redactor = new Redactor();
        redactor.add(secret);
        const text = `${ids.join(" ")} exit code | 1 | ${secret}_free dev-${secret}`;
        expect(redactor.text(text)).toBe(text);
      }),
      { numRuns: 300, seed: 19 },
    );
  });

  it("a long value is masked in text wherever it stands whole, and nothing else changes", () => {
    const secret = fc.stringMatching(/^[A-Za-z0-9]{6,20}$/);
    fc.assert(
      fc.property(secret, uuid, (value, id) => {
        fc.pre(!id.includes(value));
        const redactor = new Redactor();
        redactor.add(value);
        expect(redactor.text(`id ${id}: "${value}" rejected (${value})`)).toBe(`id ${id}: "${REDACTED}" rejected (${REDACTED})`);
        expect(redactor.text(`${value}x ${value}_y`)).toBe(`${value}x ${value}_y`);
      }),
      { numRuns: 300, seed: 19 },
    );
  });

  it("echo(): secrets[].value, a header echo of the key and a whole secret value are hidden; keys and every other value stay", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 12 }), fc.string({ minLength: 1, maxLength: 12 }), uuid, (secret, key, id) => {
        fc.pre(secret !== key && secret !== id && key !== id && secret !== "A" && !["id", "deployment_type", "secrets", "echo"].includes(secret));
        const redactor = new Redactor();
        redactor.addSecret(secret);
        redactor.add(key);
        const data = { id, [secret]: key, deployment_type: key, secrets: [{ name: "A", value: id }], echo: { "X-Api-Key": key, note: secret } };
        const seen = redactor.echo(data);
        // The secret as a name, the key as an ordinary value: unchanged.
        expect(Object.keys(seen)).toEqual(Object.keys(data));
        expect(seen).toEqual({
          id,
          [secret]: key,
          deployment_type: key,
          secrets: [{ name: "A", value: REDACTED }],
          echo: { "X-Api-Key": REDACTED, note: REDACTED },
        });
      }),
      { numRuns: 300, seed: 19 },
    );
  });

  it("echo() keeps a member named __proto__ a member", () => {
    const data = JSON.parse('{"__proto__":{"polluted":true},"name":"n"}');
    const seen = new Redactor().echo(data) as Record<string, unknown>;
    expect(JSON.stringify(seen)).toBe('{"__proto__":{"polluted":true},"name":"n"}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
