// The paging rule of the document, checked where a page arrives: the response `offset` is the
// offset of the next page, and a page with fewer than `limit` resources is the last one. Both
// ways of walking a list (paginate and createQueries' infinite queries) read each page through
// this check, so a server that breaks the rule fails them in the same words.
import { jsonExcerpt } from "./problem-details.js";
import { invalidResponseBody, unwrap } from "./errors.js";
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
 * response, for a 2xx that is not a page, for a page of more resources than `limit`, and for a
 * full page whose offset is not a whole number past the one asked for (following it would fetch
 * the same page forever).
 */
export function readPage<Item>(result: UntypedResult, limit: number, offset: number): Page<Item> {
  const page = unwrap(result) as Page<Item> | null;
  if (!Array.isArray(page?.resources)) {
    throw invalidResponseBody(result.response, page, `the ${result.response.status} response is not a page: it has no "resources" list`);
  }
  // More than asked for: the server ignored the limit, and its offsets cannot be trusted to end the walk.
  if (page.resources.length > limit) {
    throw invalidResponseBody(result.response, page, `the page has ${page.resources.length} resources, more than the limit of ${limit} it was asked for`);
  }
  if (hasNextPage(page, limit) && !(Number.isSafeInteger(page.offset) && page.offset > offset)) {
    throw invalidResponseBody(
      result.response,
      page,
      Number.isSafeInteger(page.offset)
        ? `the response offset ${page.offset} does not advance past ${offset}`
        : `the response offset ${jsonExcerpt(page.offset, 60) ?? "(none)"} is not a whole number`,
    );
  }
  return page;
}
