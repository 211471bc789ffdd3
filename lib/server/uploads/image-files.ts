// How stored images are keyed and served: shared by the route handlers and the fast read path
// (lib/server/fast-reads.ts), which is loaded outside Next's bundle and so imports no
// "server-only" module.

/** The storage key of a resized variant of an image. */
export function variantKey(size: string, name: string): string {
  return `variants/${size}/${name}`;
}

/**
 * The headers of a stored image besides its type and length. Names are immutable (a crop makes a
 * new one), hence the year of caching; nosniff and a CSP that allows nothing keep a browser from
 * ever running it.
 */
export const IMAGE_HEADERS: Readonly<Record<string, string>> = {
  "cache-control": "public, max-age=31536000, immutable",
  "x-content-type-options": "nosniff",
  "content-security-policy": "default-src 'none'",
};
