// Reading a body within a limit (src/shared/read-within.ts, for request bodies on every local server
// and response bodies in the client): never more than the limit is kept, and reading stops at the
// first chunk past it (the rest of the source is not consumed).
import { describe, expect, it } from "vitest";
import { declaresTooLarge, readBodyWithin } from "../../src/shared/read-within.js";

async function* chunks(count: number, size: number, pulled: { n: number }) {
  for (let i = 0; i < count; i++) {
    pulled.n++;
    yield new Uint8Array(size).fill(65 + (i % 26));
  }
}

describe("readBodyWithin", () => {
  it("joins the chunks of a body within the limit", async () => {
    const pulled = { n: 0 };
    const read = await readBodyWithin(chunks(4, 10, pulled), 40);
    expect(read.ok).toBe(true);
    if (read.ok) expect(new TextDecoder().decode(read.bytes)).toBe("A".repeat(10) + "B".repeat(10) + "C".repeat(10) + "D".repeat(10));
  });

  it("reads an empty body as no bytes", async () => {
    const read = await readBodyWithin(chunks(0, 0, { n: 0 }), 10);
    expect(read).toEqual({ ok: true, bytes: new Uint8Array(0) });
  });

  it("stops at the first chunk past the limit and pulls nothing more", async () => {
    const pulled = { n: 0 };
    const read = await readBodyWithin(chunks(1_000_000, 1024, pulled), 10 * 1024);
    expect(read).toEqual({ ok: false, reason: "too-large", limit: 10 * 1024 });
    expect(pulled.n).toBe(11);
  });

  it("reads a fetch ReadableStream too", async () => {
    const read = await readBodyWithin(new Response("x".repeat(100)).body!, 50);
    expect(read.ok).toBe(false);
  });

  it("cancels an endless ReadableStream at the first chunk past the limit", async () => {
    let pulled = 0;
    let cancelled = false;
    const endless = new ReadableStream<Uint8Array>({
      pull: (controller) => {
        pulled++;
        controller.enqueue(new Uint8Array(1024));
      },
      cancel: () => {
        cancelled = true;
      },
    });
    const read = await readBodyWithin(endless, 4 * 1024);
    expect(read).toEqual({ ok: false, reason: "too-large", limit: 4 * 1024 });
    expect(cancelled).toBe(true);
    // One chunk may sit in the queue ahead of the read that passed the limit.
    expect(pulled).toBeLessThanOrEqual(6);
  });
});

describe("declaresTooLarge", () => {
  it("compares a numeric Content-Length with the limit", () => {
    expect(declaresTooLarge("1048577", 1048576)).toBe(true);
    expect(declaresTooLarge("1048576", 1048576)).toBe(false);
    expect(declaresTooLarge(" 99999999999999999999 ", 10)).toBe(true);
  });

  it("leaves a missing or malformed header to the HTTP parser", () => {
    expect(declaresTooLarge(undefined, 10)).toBe(false);
    expect(declaresTooLarge("abc", 10)).toBe(false);
    expect(declaresTooLarge("-5", 10)).toBe(false);
  });
});
