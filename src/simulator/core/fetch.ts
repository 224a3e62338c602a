// The fetch adapter: `simulator.fetch(input, init)` has the signature of the global fetch and
// answers from the core in-process, with no port and no network.
import { readBodyWithin } from "../../shared/read-within.js";
import type { Router, SimRequest } from "./router.js";
import { problem, replyBody, type Reply } from "./reply.js";

/** A function with the global fetch's signature (a URL or a Request, and an init). */
export type FetchLike = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

const decoder = new TextDecoder();

function toSimRequest(request: Request): SimRequest {
  const url = request.url;
  // The path and query of an absolute URL: everything from the first "/" after "scheme://host".
  const hostStart = url.indexOf("//");
  const pathStart = url.indexOf("/", hostStart < 0 ? 0 : hostStart + 2);
  const hash = url.indexOf("#");
  const target = pathStart < 0 ? "/" : url.slice(pathStart, hash < 0 ? undefined : hash);
  return {
    method: request.method,
    target,
    header: (name) => request.headers.get(name),
    text: async (limit) => {
      if (!request.body) return "";
      const read = await readBodyWithin(request.body, limit);
      return read.ok ? decoder.decode(read.bytes) : null;
    },
  };
}

function toResponse(reply: Reply, method: string): Response {
  const headers: Record<string, string> = { ...reply.headers };
  const body = replyBody(reply);
  if (body.length > 0) headers["content-type"] = reply.contentType ?? "application/json";
  const noBody = method === "HEAD" || reply.status === 204 || body.length === 0;
  // The bytes are the encoder's own (an ArrayBuffer, never a SharedArrayBuffer).
  return new Response(noBody ? null : (body as BodyInit), { status: reply.status, headers });
}

/** A fetch function over a handler; `whenReady` is awaited first while the simulator is still loading. */
export function fetchOver(handle: Router, isReady: () => boolean, whenReady: Promise<unknown>): FetchLike {
  return async function simulatorFetch(input, init) {
    const request = input instanceof Request && init === undefined ? input : new Request(input, init);
    // As fetch: an aborted signal rejects with its reason, before anything is sent (nothing changes)
    // or while the answer is awaited (a latency, a write in flight, which may still be made, as on
    // a server that got the request). The signal was ignored: an aborted request was answered.
    const { signal } = request;
    signal.throwIfAborted();
    if (!isReady()) await whenReady;
    signal.throwIfAborted();
    const sim = toSimRequest(request);
    let reply: Reply;
    try {
      reply = await untilAborted(handle(sim), signal);
    } catch (error) {
      if (signal.aborted && error === signal.reason) throw error;
      // A fault of the simulator is an answer, as over HTTP, not a network error.
      reply = problem("internal", "The simulator failed to handle the request.", sim.target.split("?")[0]!);
    }
    // A dropped connection (a fault asked for): fetch rejects the way it does on a network error.
    if (reply.drop) throw new TypeError("fetch failed: the simulator dropped the connection (a fault asked for with POST /_simulator/faults)");
    return toResponse(reply, request.method);
  };
}

/** The reply, or a rejection with the signal's reason as soon as it aborts. */
function untilAborted(reply: Reply | Promise<Reply>, signal: AbortSignal): Reply | Promise<Reply> {
  if (!(reply instanceof Promise)) return reply;
  return new Promise<Reply>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    reply.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
