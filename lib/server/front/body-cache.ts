import { LRUCache } from "lru-cache";

interface Entry {
  generation: number;
  body: Buffer;
}

/**
 * Finished response bodies (gzipped), each stored under a key with the generation it was made
 * from, least recently used first out once they pass a byte budget (lru-cache). A lookup with any
 * other generation misses: the caller reads the current generation from the database on every
 * request, so nothing stale is ever served, and an old entry is simply replaced by the next answer.
 */
export class BodyCache {
  private readonly entries: LRUCache<string, Entry>;

  constructor(readonly maxBytes: number) {
    this.entries = new LRUCache<string, Entry>({
      maxSize: maxBytes,
      // A body over a quarter of the budget would evict too much to be worth keeping.
      maxEntrySize: maxBytes / 4,
      sizeCalculation: (entry) => Math.max(1, entry.body.length),
    });
  }

  /** The body stored for `key` at `generation`, marked as just used; undefined otherwise. */
  get(key: string, generation: number): Buffer | undefined {
    const entry = this.entries.peek(key);
    if (!entry || entry.generation !== generation) return undefined;
    return this.entries.get(key)?.body;
  }

  /** Stores `body` for `key` at `generation`, dropping the least recently used over budget. */
  set(key: string, generation: number, body: Buffer): void {
    // Two answers of the same key can finish out of order: keep the newer generation.
    const old = this.entries.peek(key);
    if (old && old.generation > generation) return;
    if (body.length > this.maxBytes / 4) {
      // Too big to keep; an older generation of it is stale now, so drop that too.
      this.entries.delete(key);
      return;
    }
    this.entries.set(key, { generation, body });
  }

  /** Bytes held, for tests and logs. */
  get bytes(): number {
    return this.entries.calculatedSize;
  }
}
