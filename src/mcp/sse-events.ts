// The priming event of `dms mcp --port`'s SSE answers. The 2025-11-25 revision of MCP asks a server
// to open each POST's stream with a priming event (an event id with empty data) and a `retry`
// field, so that a client can tell a stream it may resume. The SDK's transport writes one only with
// an event store and only for clients that announce 2025-11-25 in the request's header; this server
// is stateless (each POST has its own transport, gone with it), so it keeps no events to replay and
// writes the priming event itself, on every SSE answer. An empty `data` dispatches nothing in a
// client that follows the SSE standard, and the SDK's clients skip it. A GET that asks to resume
// gets the 405 any GET gets: a stream cut mid-call stays lost, and its call is aborted with it.
import type { ServerResponse } from "node:http";

/** The `retry` a stream announces: how long a client waits before it tries to reconnect. */
export const SSE_RETRY_MS = 1000;

const PRIMING_EVENT = `id: 0\nretry: ${SSE_RETRY_MS}\ndata: \n\n`;

/** writeHead's headers argument (an object or a flat name/value list) as entries. */
function entriesOf(headers: unknown): [string, unknown][] {
  if (Array.isArray(headers)) {
    const entries: [string, unknown][] = [];
    for (let i = 0; i + 1 < headers.length; i += 2) entries.push([String(headers[i]), headers[i + 1]]);
    return entries;
  }
  return typeof headers === "object" && headers !== null ? Object.entries(headers) : [];
}

/**
 * Makes `res` open with the priming event when its answer turns out to be an event stream. The
 * SDK may give a short stream's length in Content-Length; the event makes the body longer, so that
 * header is dropped and the stream is sent chunked. (node:http's writeHead has several overloads:
 * the original is called with Reflect.apply and replaced with Object.assign, so no cast claims a
 * signature for it.)
 */
export function primeEventStream(res: ServerResponse): void {
  const writeHead = res.writeHead;
  Object.assign(res, {
    writeHead(status: number, ...rest: unknown[]): ServerResponse {
      const at = rest.findIndex((arg) => typeof arg === "object" && arg !== null);
      const given = at < 0 ? [] : entriesOf(rest[at]);
      const type = String(given.find(([name]) => name.toLowerCase() === "content-type")?.[1] ?? res.getHeader("content-type") ?? "");
      if (!type.toLowerCase().startsWith("text/event-stream")) return Reflect.apply(writeHead, res, [status, ...rest]);
      res.removeHeader("content-length");
      const headers = Object.fromEntries(given.filter(([name]) => name.toLowerCase() !== "content-length"));
      const written = Reflect.apply(writeHead, res, [status, ...(at < 0 ? rest : rest.map((arg, i) => (i === at ? headers : arg)))]);
      res.write(PRIMING_EVENT);
      return written;
    },
  });
}
