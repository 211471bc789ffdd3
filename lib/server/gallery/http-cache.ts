// How shared caches may keep the Gallery (ADR 028). Loaded by both module graphs: no imports.

/**
 * A CDN may keep a Gallery page 30 s (and serve it stale 30 s more while it asks again); the
 * browser always asks, and gets a 304 when the ETag still matches.
 */
export const GALLERY_CACHE_CONTROL = "public, max-age=0, s-maxage=30, stale-while-revalidate=30";

/** Whether an If-None-Match header names this (strong) ETag; `*` and lists included. */
export function etagMatches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch
    .split(",")
    .map((t) => t.trim().replace(/^W\//, ""))
    .some((t) => t === etag || t === "*");
}
