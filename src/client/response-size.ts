// The bound on a response body: the client reads at most maxResponseBytes of a response, so a
// server (or a proxy in front of it) that sends an endless or enormous body cannot fill the
// caller's memory within the attempt's deadline. A body past the bound rejects the call with a
// ResponseTooLargeError, which is not retried (the same request would get the same body).
import { declaresTooLarge, readBodyWithin } from "../shared/read-within.js";
import { pathOf } from "./errors.js";
import type { RequestFetch } from "./request-fetch.js";

/** The default bound on one response body: far above a page of 100 large resources, far below what fills a process. */
export const DEFAULT_MAX_RESPONSE_BYTES = 128 * 1024 * 1024;

/** The maxResponseBytes option: a whole number > 0, or a TypeError naming it. */
export function checkMaxResponseBytes(where: string, value: unknown): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0) {
    throw new TypeError(`${where}: maxResponseBytes must be a whole number > 0, got ${typeof value === "string" ? JSON.stringify(value) : String(value)}`);
  }
  return value;
}

/** A response body was longer than the client's `maxResponseBytes`; the rest of it was not read. */
export class ResponseTooLargeError extends Error {
  override readonly name = "ResponseTooLargeError";
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    readonly maxResponseBytes: number,
  ) {
    super(`${method} ${path} answered ${status} with a body longer than ${maxResponseBytes} bytes (maxResponseBytes); the rest was not read`);
  }
}

/**
 * Whether `error` is a PATCH the service answered with success whose answer was too large to read:
 * the patch was applied (a revision may have been created) though the client never saw the answer,
 * so sending it again could deploy twice. dms and the MCP server say so as for a PATCH that got no
 * complete answer (src/shared/unknown-outcome.ts).
 */
export function isUnreadPatchSuccess(error: unknown): boolean {
  return error instanceof ResponseTooLargeError && error.method === "PATCH" && error.status >= 200 && error.status < 300;
}

/** The body as text (UTF-8, as Response.text() reads it), or a rejection once it passes maxBytes. */
async function readBounded(body: ReadableStream<Uint8Array>, maxBytes: number, tooLarge: () => Error): Promise<string> {
  const read = await readBodyWithin(body, maxBytes);
  if (!read.ok) throw tooLarge();
  return new TextDecoder().decode(read.bytes);
}

/**
 * A fetch whose responses read their body as text within maxBytes: a Content-Length over the bound
 * is refused before the body is read, and any other body as soon as the bytes read pass it. The
 * response itself is kept (its status, URL and headers, even a status no Response could be built
 * with); only its `text()`, the one way the client reads a body, is bounded.
 */
export function boundedResponses(fetchOnce: RequestFetch, maxBytes: number): RequestFetch {
  return async (request) => {
    const response = await fetchOnce(request);
    const tooLarge = () => new ResponseTooLargeError(request.method, pathOf(request.url), response.status, maxBytes);
    if (declaresTooLarge(response.headers.get("Content-Length"), maxBytes)) {
      await response.body?.cancel().catch(() => undefined);
      throw tooLarge();
    }
    const { body } = response;
    if (body !== null) Object.defineProperty(response, "text", { value: () => readBounded(body, maxBytes, tooLarge), configurable: true });
    return response;
  };
}
