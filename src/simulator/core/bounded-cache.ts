// A least-recently-used cache bounded by bytes and by entries: the only kind of cache the simulator
// keeps, so no sequence of requests (large valid values, then many distinct queries) can grow
// memory without end. A value larger than the whole budget is not kept at all. No Node imports.

export interface CacheBounds {
  /** The most bytes the cached values may take together (as `sizeOf` counts them). */
  maxBytes: number;
  /** The most entries, whatever their size. */
  maxEntries: number;
}

export class BoundedCache<K, V> {
  /** Map order is use order: the first entry is the least recently used. */
  private entries = new Map<K, { value: V; bytes: number }>();
  private total = 0;

  constructor(
    private readonly bounds: Readonly<CacheBounds>,
    private readonly sizeOf: (value: V) => number,
  ) {}

  /** The cached value, now the most recently used; undefined when absent. */
  get(key: K): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit.value;
  }

  /** Keeps `value` as the most recently used, evicting the least recently used until both bounds hold. */
  set(key: K, value: V): void {
    this.delete(key);
    const bytes = this.sizeOf(value);
    if (bytes > this.bounds.maxBytes || this.bounds.maxEntries < 1) return;
    this.entries.set(key, { value, bytes });
    this.total += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.total <= this.bounds.maxBytes && this.entries.size <= this.bounds.maxEntries) break;
      this.entries.delete(oldest);
      this.total -= entry.bytes;
    }
  }

  delete(key: K): void {
    const hit = this.entries.get(key);
    if (!hit) return;
    this.entries.delete(key);
    this.total -= hit.bytes;
  }

  /** Bytes held now (never more than `maxBytes`). */
  get bytes(): number {
    return this.total;
  }

  get size(): number {
    return this.entries.size;
  }
}

/** Bytes a string or byte array takes: two per UTF-16 code unit, one per byte. */
export function sizeOfText(text: string | Uint8Array): number {
  return typeof text === "string" ? text.length * 2 : text.byteLength;
}
