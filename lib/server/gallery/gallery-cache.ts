// The Gallery's pages kept in memory (ADR 028): a hot page costs one database read per
// GALLERY_CACHE_MS per instance, whatever the traffic, and no reader waits for that read once the
// page was read: a page past GALLERY_CACHE_MS (but within GALLERY_STALE_MS more) is answered as it
// is while one read refreshes it. Any listing change in this process (galleryChanged) drops every
// page at once, stale ones included. Loaded by Next's bundle and by the front server's graph alike,
// so the one cache lives on globalThis (as front/process-singletons.ts explains); imports nothing
// from the bundle.
import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";

/** How long a kept page is answered before it is read again; another instance's unlisting is seen
 * within this (plus GALLERY_STALE_MS for a page nobody asked for meanwhile). This instance's
 * listing changes clear the cache at once (galleryChanged). */
export const GALLERY_CACHE_MS = 2_000;
/** How long after GALLERY_CACHE_MS a kept page may still be answered while it is read again. */
export const GALLERY_STALE_MS = 10_000;
const MAX_PAGES = 2_000;

export interface KeptGalleryPage<T> {
  value: T;
  /** The value as JSON text, and its strong ETag. */
  json: string;
  etag: string;
}

interface Entry {
  page: KeptGalleryPage<unknown>;
  generation: number;
  readAt: number;
}

interface GalleryCache {
  pages: LRUCache<string, Entry>;
  loading: Map<string, Promise<KeptGalleryPage<unknown>>>;
  generation: number;
  /** Database reads made to fill the cache, for the bench and tests. */
  reads: number;
  /** The clock (tests move it). */
  now: () => number;
}

const holder = globalThis as { __heirloomGalleryCache?: GalleryCache };

function cache(): GalleryCache {
  holder.__heirloomGalleryCache ??= {
    pages: new LRUCache({ max: MAX_PAGES }),
    loading: new Map(),
    generation: 0,
    reads: 0,
    now: () => performance.now(),
  };
  return holder.__heirloomGalleryCache;
}

export const etagOf = (text: string) =>
  `"${createHash("sha256").update(text).digest("base64url").slice(0, 27)}"`;

/** The entry under `key` that may still be answered (this generation, within the stale window). */
function usable(c: GalleryCache, key: string): { entry: Entry; fresh: boolean } | null {
  const entry = c.pages.get(key);
  if (!entry) return null;
  const age = c.now() - entry.readAt;
  if (entry.generation !== c.generation || age >= GALLERY_CACHE_MS + GALLERY_STALE_MS) {
    c.pages.delete(key);
    return null;
  }
  return { entry, fresh: age < GALLERY_CACHE_MS };
}

/** Starts (or joins) the one read of `key`; a read begun before a galleryChanged() is not kept. */
function startLoad<T>(
  c: GalleryCache,
  key: string,
  load: () => Promise<T>,
): Promise<KeptGalleryPage<T>> {
  const pending = c.loading.get(key) as Promise<KeptGalleryPage<T>> | undefined;
  if (pending) return pending;
  const generation = c.generation;
  const job = (async () => {
    c.reads += 1;
    const readAt = c.now();
    const value = await load();
    const json = JSON.stringify(value);
    const page = { value, json, etag: etagOf(json) };
    if (c.generation === generation) c.pages.set(key, { page, generation, readAt });
    return page;
  })().finally(() => {
    if (c.loading.get(key) === job) c.loading.delete(key);
  });
  c.loading.set(key, job);
  return job;
}

/**
 * The kept page under `key`, or `load`'s answer (kept). Concurrent misses share one load; a page
 * past GALLERY_CACHE_MS is answered at once while one load refreshes it (a failed refresh leaves
 * it as it was, until GALLERY_STALE_MS).
 */
export async function keptGalleryPage<T>(
  key: string,
  load: () => Promise<T>,
): Promise<KeptGalleryPage<T>> {
  const c = cache();
  const found = usable(c, key);
  if (found) {
    if (!found.fresh && !c.loading.has(key)) startLoad(c, key, load).catch(() => undefined);
    return found.entry.page as KeptGalleryPage<T>;
  }
  return startLoad(c, key, load);
}

/**
 * The page under `key` read within GALLERY_CACHE_MS: the kept one when it is that fresh, else the
 * answer of one read (shared with any read of `key` under way). For a refresh that must know
 * whether the listing changed (the front's kept HTML).
 */
export async function freshGalleryPage<T>(
  key: string,
  load: () => Promise<T>,
): Promise<KeptGalleryPage<T>> {
  const c = cache();
  const found = usable(c, key);
  if (found?.fresh) return found.entry.page as KeptGalleryPage<T>;
  return startLoad(c, key, load);
}

/** The ETag of the page kept under `key` (fresh or not), if any. */
export const keptGalleryEtag = (key: string): string | null =>
  usable(cache(), key)?.entry.page.etag ?? null;

/** Whether `key` would be answered without a new database read now (kept, or being read). */
export const galleryPageKept = (key: string): boolean => {
  const c = cache();
  return usable(c, key) !== null || c.loading.has(key);
};

/** Drops every kept page: a publication was listed, unlisted, hidden, republished or deleted. */
export function galleryChanged(): void {
  const c = cache();
  c.generation += 1;
  c.pages.clear();
  c.loading.clear();
}

/** Bumped by every galleryChanged(): a page kept under an older generation is stale. */
export const galleryGeneration = (): number => cache().generation;

/** Database reads made to fill the cache since the process started. */
export const galleryCacheReads = (): number => cache().reads;

/** Sets the cache's clock (tests). */
export function setGalleryClock(now: () => number): void {
  cache().now = now;
}
