// The paging rule of the document, checked where a page arrives: the response `offset` is the
// offset of the next page, and a page with fewer than `limit` resources is the last one. Both
// ways of walking a list (paginate and createQueries' infinite queries) read each page through
// this check, so a server that breaks the rule fails them in the same words.
import { ApiError, unwrap } from "./errors.js";
import type { UntypedResult } from "./untyped-call.js";

export interface Page<Item = unknown> {
  resources: Item[];
  offset: number;
}

/** Whether another page follows this one, which was asked for with `limit`. */
export function hasNextPage(page: Page, limit: number): boolean {
  return page.resources.length > 0 && page.resources.length >= limit;
}

/**
 * The page in a list response asked for at `offset` with `limit`, or an ApiError: for an error
 * response, for a 2xx that is not a page, and for a full page whose offset does not move past the
 * one asked for (following it would fetch the same page forever).
 */
export function readPage<Item>(result: UntypedResult, limit: number, offset: number): Page<Item> {
  const page = unwrap(result) as Page<Item> | null;
  if (!Array.isArray(page?.resources)) {
    throw new ApiError(result.response, page, {
      title: "Invalid response body",
      detail: `the ${result.response.status} response is not a page: it has no "resources" list`,
    });
  }
  if (hasNextPage(page, limit) && !(typeof page.offset === "number" && page.offset > offset)) {
    throw new ApiError(result.response, page, {
      title: "Invalid response body",
      detail: `the response offset ${String(page.offset)} does not advance past ${offset}`,
    });
  }
  return page;
}
