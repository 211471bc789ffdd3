// The Gallery's pages kept in memory (ADR 028): a hot page costs one database read per
// GALLERY_CACHE_MS per instance, whatever the traffic. Loaded by Next's bundle and by the front
// server's graph alike, so the one cache lives on globalThis (as front/process-singletons.ts
// explains); imports nothing from the bundle.
import { createHash } from "node:crypto";
import { LRUCache } from "lru-cache";

/** How long a kept page is served before it is read again; another instance's unlisting is seen
 * within this. This instance's listing changes clear the cache at once (galleryChanged). */
export const GALLERY_CACHE_MS = 2_000;
const MAX_PAGES = 2_000;

export interface KeptGalleryPage<T> {
  value: T;
  /** The value as JSON text, and its strong ETag. */
  json: string;
  etag: string;
}

interface GalleryCache {
  pages: LRUCache<string, KeptGalleryPage<unknown>>;
  loading: Map<string, Promise<KeptGalleryPage<unknown>>>;
  generation: number;
  /** Database reads made to fill the cache, for the bench and tests. */
  reads: number;
}

const holder = globalThis as { __heirloomGalleryCache?: GalleryCache };

function cache(): GalleryCache {
  holder.__heirloomGalleryCache ??= {
    pages: new LRUCache({ max: MAX_PAGES, ttl: GALLERY_CACHE_MS, ttlAutopurge: false }),
    loading: new Map(),
    generation: 0,
    reads: 0,
  };
  return holder.__heirloomGalleryCache;
}

export const etagOf = (text: string) =>
  `"${createHash("sha256").update(text).digest("base64url").slice(0, 27)}"`;

/**
 * The kept page under `key`, or `load`'s answer (kept). Concurrent misses share one load; a load
 * that began before a galleryChanged() is answered but not kept.
 */
export async function keptGalleryPage<T>(
  key: string,
  load: () => Promise<T>,
): Promise<KeptGalleryPage<T>> {
  const c = cache();
  const kept = c.pages.get(key) as KeptGalleryPage<T> | undefined;
  if (kept) return kept;
  const pending = c.loading.get(key) as Promise<KeptGalleryPage<T>> | undefined;
  if (pending) return pending;
  const generation = c.generation;
  const job = (async () => {
    c.reads += 1;
    const value = await load();
    const json = JSON.stringify(value);
    const page = { value, json, etag: etagOf(json) };
    if (c.generation === generation) c.pages.set(key, page);
    return page;
  })();
  c.loading.set(key, job);
  try {
    return await job;
  } finally {
    c.loading.delete(key);
  }
}

/** Whether `key` would be answered from memory now (no database read). */
export const galleryPageKept = (key: string): boolean => cache().pages.has(key);

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
