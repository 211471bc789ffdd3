/**
 * Finished response bodies (gzipped), each stored under a key with the generation it was made
 * from, least recently used first out once they pass a byte budget. A lookup with any other
 * generation misses: the caller reads the current generation from the database on every request,
 * so nothing stale is ever served, and an old entry is simply replaced by the next answer.
 */
export class BodyCache {
  private readonly entries = new Map<string, { generation: number; body: Buffer }>();
  private size = 0;

  constructor(readonly maxBytes: number) {}

  /** The body stored for `key` at `generation`, marked as just used; undefined otherwise. */
  get(key: string, generation: number): Buffer | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.generation !== generation) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.body;
  }

  /** Stores `body` for `key` at `generation`, dropping the least recently used over budget. */
  set(key: string, generation: number, body: Buffer): void {
    const old = this.entries.get(key);
    if (old) {
      // Two answers of the same key can finish out of order: keep the newer generation.
      if (old.generation > generation) return;
      this.entries.delete(key);
      this.size -= old.body.length;
    }
    // A body over a quarter of the budget would evict too much to be worth keeping.
    if (body.length > this.maxBytes / 4) return;
    this.entries.set(key, { generation, body });
    this.size += body.length;
    for (const [oldest, entry] of this.entries) {
      if (this.size <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.size -= entry.body.length;
    }
  }

  /** Bytes held, for tests and logs. */
  get bytes(): number {
    return this.size;
  }
}
