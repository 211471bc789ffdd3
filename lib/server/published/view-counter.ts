// Views of public trees, counted in memory and written in batches (ADR 014), at most one per reader
// per tree per VIEW_WINDOW_MS (ADR 024). Loaded by the production server outside Next's bundle as
// well as inside it, so it imports nothing server-only; the process keeps one counter
// (front/process-singletons.ts), which both halves share.
import { createHmac, randomBytes } from "node:crypto";
import {
  processSingleton,
  sharedProcessSingleton,
  type ProcessViewCounter,
} from "@/lib/server/front/process-singletons";

/** How often counts are written: a crash loses at most this long of views. */
export const VIEW_FLUSH_MS = 2_000;
/** A reader's views of one tree within this window count once. */
export const VIEW_WINDOW_MS = 30 * 60_000;
/**
 * Readers remembered per window (each a 12-byte keyed hash): past this, views of new readers are
 * not counted until the window turns, so a flood of forged readers costs bounded memory.
 */
export const MAX_READERS_PER_WINDOW = 200_000;

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

/** The reader of a request, as the counter takes it: hashed at once, never kept as given. */
export function readerOf(address: string | undefined, userAgent: string | undefined): string {
  return `${address ?? ""}\n${userAgent ?? ""}`;
}

interface ReaderWindow {
  startedAt: number;
  secret: Buffer;
  seen: Set<string>;
}

/**
 * Which (reader, tree) pairs were counted lately, without keeping any address: each window has
 * its own random secret, held in memory only, and remembers HMAC(secret, tree + reader) cut to
 * 96 bits. The current window and the one before are checked, so a pair counted at time t is
 * remembered until at least t + windowMs; older windows are dropped with their secrets, after
 * which nothing links a hash to an address, not even this process.
 */
export class ReaderWindows {
  private current: ReaderWindow;
  private previous: ReaderWindow | null = null;

  constructor(
    private readonly now: () => number = Date.now,
    readonly windowMs = VIEW_WINDOW_MS,
    readonly maxReaders = MAX_READERS_PER_WINDOW,
  ) {
    this.current = this.fresh(now());
  }

  private fresh(startedAt: number): ReaderWindow {
    return { startedAt, secret: randomBytes(32), seen: new Set() };
  }

  private key(window: ReaderWindow, treeId: string, reader: string): string {
    return createHmac("sha256", window.secret)
      .update(treeId)
      .update("\n")
      .update(reader)
      .digest("base64url")
      .slice(0, 16);
  }

  /** True the first time a reader reads a tree within the window (and remembers it). */
  firstView(treeId: string, reader: string): boolean {
    const at = this.now();
    if (at - this.current.startedAt >= this.windowMs) {
      // A window that ended more than one window ago is forgotten too.
      const recent = at - this.current.startedAt < 2 * this.windowMs;
      this.previous = recent ? this.current : null;
      this.current = this.fresh(at);
    }
    const key = this.key(this.current, treeId, reader);
    if (this.current.seen.has(key)) return false;
    if (this.previous?.seen.has(this.key(this.previous, treeId, reader))) return false;
    if (this.current.seen.size >= this.maxReaders) return false;
    this.current.seen.add(key);
    return true;
  }

  /** Readers remembered (both windows). */
  get size(): number {
    return this.current.seen.size + (this.previous?.seen.size ?? 0);
  }
}

export interface ViewCounterOptions {
  intervalMs?: number;
  /** The clock of the readers' windows (tests move it). */
  now?: () => number;
  windowMs?: number;
  maxReaders?: number;
}

export class ViewCounter implements ProcessViewCounter {
  private pending = new Map<string, number>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private readonly readers: ReaderWindows;
  readonly intervalMs: number;

  constructor(
    private readonly write: FlushViews,
    private readonly onError: (error: unknown) => void = () => undefined,
    options: ViewCounterOptions | number = {},
  ) {
    const settings = typeof options === "number" ? { intervalMs: options } : options;
    this.intervalMs = settings.intervalMs ?? VIEW_FLUSH_MS;
    this.readers = new ReaderWindows(settings.now, settings.windowMs, settings.maxReaders);
  }

  /**
   * One view of a published tree: a map update, no I/O. With a reader (readerOf), only the
   * reader's first view of the tree within the window counts.
   */
  count(treeId: string, reader?: string): void {
    if (reader !== undefined && !this.readers.firstView(treeId, reader)) return;
    this.add(treeId, 1);
  }

  private add(treeId: string, views: number): void {
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

  /** Readers remembered in the current and previous window. */
  get rememberedReaders(): number {
    return this.readers.size;
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
        for (const [treeId, views] of batch) this.add(treeId, views);
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
 * does, with its data-access seam, before any request), then shared.
 */
export function processViewCounter(create: () => ProcessViewCounter): ProcessViewCounter {
  return sharedProcessSingleton("__heirloomViews", create);
}

/** The counter if one was made, for a clean stop. */
export function existingViewCounter(): ProcessViewCounter | undefined {
  return processSingleton("__heirloomViews");
}
