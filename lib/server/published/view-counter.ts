// Views of public trees, counted in memory and written in batches (ADR 014). Loaded by the
// production server outside Next's bundle as well as inside it, so it imports nothing
// server-only; the process keeps one counter (front/process-singletons.ts), which both halves share.
import { processSingleton, sharedProcessSingleton } from "@/lib/server/front/process-singletons";

/** How often counts are written: a crash loses at most this long of views. */
export const VIEW_FLUSH_MS = 2_000;

/**
 * $1 tree ids, $2 their counts → adds each count to its tree's viewCount in one statement. A tree
 * unpublished meanwhile matches no row, and its views are dropped.
 */
export const VIEW_COUNT_FLUSH_SQL = `
  UPDATE "PublishedTree" p SET "viewCount" = p."viewCount" + v.n
  FROM unnest($1::text[], $2::int[]) AS v(id, n)
  WHERE p."treeId" = v.id`;

/** Writes one batch: tree ids and how many views each gained. */
export type FlushViews = (treeIds: string[], counts: number[]) => Promise<void>;

export class ViewCounter {
  private pending = new Map<string, number>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly write: FlushViews,
    private readonly onError: (error: unknown) => void = () => undefined,
    readonly intervalMs = VIEW_FLUSH_MS,
  ) {}

  /** One view of a published tree: a map update, no I/O. */
  count(treeId: string, views = 1): void {
    this.pending.set(treeId, (this.pending.get(treeId) ?? 0) + views);
    if (!this.timer) {
      this.timer = setInterval(() => void this.flush(), this.intervalMs);
      // Counting never keeps a process alive; a clean stop calls close().
      this.timer.unref();
    }
  }

  /** Views counted and not written yet. */
  get unwritten(): number {
    let total = 0;
    for (const views of this.pending.values()) total += views;
    return total;
  }

  /** Writes what was counted so far. A failed write keeps its counts for the next one. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      if (this.pending.size === 0) return;
      const batch = this.pending;
      this.pending = new Map();
      try {
        await this.write([...batch.keys()], [...batch.values()]);
      } catch (error) {
        for (const [treeId, views] of batch) this.count(treeId, views);
        this.onError(error);
      }
    });
    return this.flushing;
  }

  /** Stops the timer and writes the rest: a clean restart loses nothing. */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
  }
}

/**
 * The process's counter: made with `create` by whichever half asks first (the production server
 * does, with its pg pool, before any request), then shared.
 */
export function processViewCounter(create: () => ViewCounter): ViewCounter {
  return sharedProcessSingleton("__heirloomViews", create);
}

/** The counter if one was made, for a clean stop. */
export function existingViewCounter(): ViewCounter | undefined {
  return processSingleton("__heirloomViews");
}
