// Reading a body without ever holding more than a limit, for whatever reads bytes from outside: the
// local servers read request bodies with it (src/local-server/node-gate.ts, the simulator's fetch)
// and the client reads response bodies with it (src/client/response-size.ts). A declared
// Content-Length over the limit is refused before a byte is read; any other body as soon as the
// bytes read pass the limit, so an endless or enormous body costs at most the limit in memory.
// Works on any async iterable of bytes (a node:http IncomingMessage) or a fetch ReadableStream.
// No Node imports.

export type BodyRead = { ok: true; bytes: Uint8Array } | { ok: false; reason: "too-large"; limit: number };

/**
 * Whether a Content-Length header already says the body is longer than `limit`. A header that is
 * not a plain number says nothing here: a server's HTTP parser answers it 400 before any handler
 * runs, and a body read by the client is still held to the limit as it is read.
 */
export function declaresTooLarge(contentLength: string | undefined | null, limit: number): boolean {
  if (typeof contentLength !== "string" || !/^\s*\d+\s*$/.test(contentLength)) return false;
  return Number(contentLength) > limit;
}

/**
 * Reads a body of at most `limit` bytes. On the first chunk that passes the limit it stops reading
 * and returns `too-large`. A ReadableStream is then cancelled (nothing more of it is fetched); an
 * async iterable is left as it is, since leaving a node:http request early would destroy its socket
 * before the server could answer 413 (the server closes the connection after answering, so the rest
 * of the upload is never read or buffered).
 */
export async function readBodyWithin(source: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>, limit: number): Promise<BodyRead> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  // Pulled by hand: not every browser's ReadableStream is async iterable, and see above.
  const reader = "getReader" in source ? source.getReader() : undefined;
  const pull = reader ? readerPull(reader) : (source as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
  for (let next = await pull.next(); !next.done; next = await pull.next()) {
    size += next.value.byteLength;
    if (size > limit) {
      await reader?.cancel().catch(() => undefined);
      return { ok: false, reason: "too-large", limit };
    }
    chunks.push(next.value);
  }
  if (chunks.length === 1) return { ok: true, bytes: chunks[0]! };
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return { ok: true, bytes };
}

function readerPull(reader: ReadableStreamDefaultReader<Uint8Array>): { next(): Promise<IteratorResult<Uint8Array>> } {
  return {
    next: async () => {
      const { done, value } = await reader.read();
      return done ? { done: true, value: undefined } : { done: false, value };
    },
  };
}
