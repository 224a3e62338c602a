// paginate: the items of a paged list, one page fetched at a time as the loop asks for more.
// Paging rule of the document: the response `offset` is the offset of the next page, and a page
// with fewer than `limit` resources is the last one.
import type { paths } from "../../generated/schema.js";
import type { DeploymentsClient } from "./client.js";
import { invalidResponseBody } from "./errors.js";
import { jsonExcerpt } from "./problem-details.js";
import { hasNextPage, readPage } from "./page.js";
import { untypedMethods } from "./untyped-call.js";

/** The list operations that return `{ resources, offset }` pages. */
export type PagedPath = "/v2/deployments" | "/v2/deployments/{deployment_id}/revisions" | "/v2/listeners";

type ListOperation<P extends PagedPath> = paths[P]["get"];

/** One page of the list at P, such as DeploymentPage. */
export type PageOf<P extends PagedPath> = ListOperation<P>["responses"][200]["content"]["application/json"];

/** The item type of the list at P, such as Deployment. */
export type ItemOf<P extends PagedPath> = PageOf<P>["resources"][number];

/** The list's own parameters (query filters, and the path ids where the path has them), plus a signal that stops the walk. */
export type PaginateParams<P extends PagedPath> = {
  query?: ListOperation<P>["parameters"]["query"] | undefined;
  signal?: AbortSignal | undefined;
} & (ListOperation<P>["parameters"] extends { path: infer PathParams } ? { path: PathParams } : Record<never, never>);

/** params may be left out where the list has no required parameter. */
export type PaginateArgs<P extends PagedPath> = Record<never, never> extends PaginateParams<P> ? [params?: PaginateParams<P>] : [params: PaginateParams<P>];

/** The page size sent when the caller gives no `limit`: the document's maximum, for the fewest requests. */
export const DEFAULT_PAGE_SIZE = 100;

/**
 * Every item of a paged list, newest first, fetching the next page only when the loop reaches it.
 * `for await (const d of paginate(client, "/v2/deployments", { query: { status: "READY" } })) …`
 * Throws ApiError on an error response or a 200 that is not a page, and the signal's reason when it is aborted.
 */
export async function* paginate<P extends PagedPath>(client: DeploymentsClient, path: P, ...args: PaginateArgs<P>): AsyncGenerator<ItemOf<P>, void, undefined> {
  const {
    query = {},
    path: pathParams,
    signal,
  } = (args[0] ?? {}) as {
    query?: { limit?: number; offset?: number };
    path?: Record<string, unknown>;
    signal?: AbortSignal;
  };
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  let offset = query.offset ?? 0;
  // This walk is generic over the paged paths, which TypeScript cannot relate to one another: the
  // types are checked at the signature, and the call goes through the untyped view.
  const get = untypedMethods(client).GET;
  let before: string | undefined;
  let repeats = 0;
  let firstOfRepeat = offset;
  for (;;) {
    signal?.throwIfAborted();
    const init = { params: { query: { ...query, limit, offset }, path: pathParams }, signal };
    const result = await get(path, init);
    const page = readPage<ItemOf<P>>(result, limit, offset);
    // A server (or a cache in front of it) that ignores offset sends the same full page at every
    // offset it is told to go on at: the walk would never end, yielding the same items. One repeat
    // can happen on a live list (exactly `limit` new items arrived between two pages); three of the
    // same page in a row is the server.
    const ids = idsOf(page.resources);
    repeats = ids !== undefined && ids === before ? repeats + 1 : 0;
    if (repeats >= 2) {
      throw invalidResponseBody(
        result.response,
        page,
        `the pages at offsets ${firstOfRepeat} to ${offset} hold the same resources (the server ignored offset)`,
      );
    }
    if (repeats === 0) firstOfRepeat = offset;
    before = ids;
    for (const item of page.resources) {
      signal?.throwIfAborted();
      yield item;
    }
    if (!hasNextPage(page, limit)) return;
    offset = page.offset;
  }
}

/**
 * What identifies a page's items, to tell the same page sent again: their ids as one string, or,
 * when an item has no string id (which the document requires), the items' own JSON, so that a
 * server that ignores offset and sends such items is still caught. Undefined for an empty page.
 */
function idsOf(items: readonly unknown[]): string | undefined {
  if (items.length === 0) return undefined;
  const ids = items.map((item) => (item as { id?: unknown } | null)?.id);
  if (ids.every((id) => typeof id === "string")) return JSON.stringify(ids);
  // Whole (no cut), and data nested thousands of levels deep read as its depth's words, not a stack overflow.
  return jsonExcerpt(items, Number.POSITIVE_INFINITY);
}
