// Reading a request body without ever holding more than the limit: a declared Content-Length
// over the limit is refused before a byte is read, and a chunked body is refused as soon as the
// bytes read pass the limit, so a 100 MB upload costs a local server at most the limit in memory.
// Works on any async iterable of bytes: a node:http IncomingMessage or a fetch ReadableStream.
// No Node imports.

export type BodyRead = { ok: true; bytes: Uint8Array } | { ok: false; reason: "too-large"; limit: number };

/**
 * Whether a Content-Length header already says the body is longer than `limit`. A header that is
 * not a plain number is left to the HTTP parser (Node answers it 400 before any handler runs).
 */
export function declaresTooLarge(contentLength: string | undefined | null, limit: number): boolean {
  if (typeof contentLength !== "string" || !/^\s*\d+\s*$/.test(contentLength)) return false;
  return Number(contentLength) > limit;
}

/**
 * Reads a body of at most `limit` bytes. On the first chunk that passes the limit it stops reading
 * and returns `too-large`; the caller answers 413 and closes the connection (the rest of the upload
 * is never read, so it is never buffered).
 */
export async function readBodyWithin(source: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>, limit: number): Promise<BodyRead> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  // Pulled by hand: leaving a `for await` early would destroy a node:http request, and its socket
  // with it, before the 413 could be sent. Not every browser's ReadableStream is async iterable.
  const pull = "getReader" in source ? readerPull(source.getReader()) : source[Symbol.asyncIterator]();
  for (let next = await pull.next(); !next.done; next = await pull.next()) {
    size += next.value.byteLength;
    if (size > limit) return { ok: false, reason: "too-large", limit };
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

/** The detail of a 413 answer. */
export function tooLargeDetail(limit: number): string {
  return `The request body is larger than ${limit} bytes (${formatBytes(limit)}), the most this server accepts.`;
}

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${Math.round(bytes / 1024)} KiB`;
}
