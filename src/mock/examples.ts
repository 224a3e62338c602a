// Which of the document's examples the mock answers, so that an example's id means that example and
// a page holds no more than it was asked for. Prism answers every GET with the operation's first
// example whatever the id, and a list with the example's items whatever the `limit`.
import type { PrismOperation } from "./prism.js";

/**
 * For a GET of one resource, the name of the 200 example whose id is the path's last parameter
 * (`value[name]` when the example has that field, such as a provider's `provider_id`; else
 * `value.id`). UUIDs compare in any case. Undefined when no example has that id.
 */
export function exampleForPath(operation: PrismOperation, pathValues: Record<string, string>): string | undefined {
  const names = (operation.request?.path ?? []).map((p) => p.name);
  const last = names.at(-1);
  if (last === undefined || operation.method.toLowerCase() !== "get") return undefined;
  const wanted = pathValues[last]?.toLowerCase();
  if (wanted === undefined) return undefined;
  for (const content of operation.responses.find((r) => r.code === "200")?.contents ?? []) {
    for (const example of content.examples ?? []) {
      const value = example.value as Record<string, unknown> | undefined;
      if (!value || typeof value !== "object") continue;
      const id = last in value ? value[last] : value.id;
      if (typeof id === "string" && id.toLowerCase() === wanted) return example.key;
    }
  }
  return undefined;
}

/** A number a query parameter was given as, read the way the mock's validation read it (`1e1` is 10). */
function queryNumber(raw: string | string[] | undefined, fallback: number): number {
  const n = typeof raw === "string" ? Number(raw) : Number.NaN;
  return Number.isFinite(n) ? Math.max(0, Math.floor(n)) : fallback;
}

/**
 * A page of a list (`{ resources: [...], offset }`): the example's items are the whole collection,
 * and the page is the request's window on it (`offset`, then at most `limit` items), its `offset`
 * the request's offset plus the resources it holds (the paging rule). So `limit=2` pages through a
 * four-item example in two pages and an empty third, as a client's paging loop expects. Anything
 * else is returned as is.
 */
export function pageWithinLimit(operation: PrismOperation, query: Record<string, string | string[]>, body: unknown): unknown {
  if (!body || typeof body !== "object" || Array.isArray(body)) return body;
  const page = body as { resources?: unknown; offset?: unknown };
  if (!Array.isArray(page.resources) || typeof page.offset !== "number") return body;
  const defaults = (name: string, fallback: number) => {
    const value = operation.request?.query?.find((p) => p.name === name)?.schema?.default;
    return typeof value === "number" ? value : fallback;
  };
  const limit = queryNumber(query.limit, defaults("limit", 20));
  const offset = queryNumber(query.offset, defaults("offset", 0));
  const resources = page.resources.slice(offset, offset + limit);
  return { ...page, resources, offset: offset + resources.length };
}
