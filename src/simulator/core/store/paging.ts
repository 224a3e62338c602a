// Paging: lists are stored oldest first and answered newest first, one page (offset, limit) at a time.

export interface Page<T> {
  items: T[];
  /** The offset of the next page. */
  offset: number;
}

/** A page of `items` walked newest first, counting only the ones that match. */
export function pageNewestFirst<T>(items: readonly T[], matches: ((item: T) => boolean) | undefined, offset: number, limit: number): Page<T> {
  const out: T[] = [];
  if (!matches) {
    for (let i = items.length - 1 - offset; i >= 0 && out.length < limit; i--) out.push(items[i]!);
    return { items: out, offset: offset + out.length };
  }
  let skipped = 0;
  for (let i = items.length - 1; i >= 0 && out.length < limit; i--) {
    const item = items[i]!;
    if (!matches(item)) continue;
    if (skipped < offset) skipped++;
    else out.push(item);
  }
  return { items: out, offset: offset + out.length };
}
