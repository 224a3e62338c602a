// The client's GET and PATCH seen without their per-path types. openapi-fetch types each call by
// its path; code that picks the path at run time (the client's own wrapper, paging through any
// list, a query or tool per operation, the openapi-fetch adapter) cannot be typed per path, so it
// calls through this one view and is typed at its own signature instead.
import type { RequestFetch } from "./request-fetch.js";

export interface UntypedInit {
  params?: { path?: Record<string, unknown>; query?: Record<string, unknown> };
  body?: unknown;
  signal?: AbortSignal | null | undefined;
  /** How openapi-fetch reads the success body; the client's wrapper asks for text and parses it itself. */
  parseAs?: "text";
  fetch?: RequestFetch;
}

export interface UntypedResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

export type UntypedCall = (path: string, init?: UntypedInit) => Promise<UntypedResult>;

/**
 * The client's GET and PATCH as untyped calls. The functions are the same; only their types are
 * dropped, which is why the client is taken as `unknown` members: a typed-per-path function
 * does not overlap this type closely enough for TypeScript to cast it any other way.
 */
export function untypedMethods(client: { GET: unknown; PATCH: unknown }): { GET: UntypedCall; PATCH: UntypedCall } {
  return { GET: client.GET as UntypedCall, PATCH: client.PATCH as UntypedCall };
}
