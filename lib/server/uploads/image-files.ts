// How stored images are keyed and served: shared by the route handlers and the fast read path
// (lib/server/fast-reads.ts), which is loaded outside Next's bundle and so imports no
// "server-only" module.

/** A format a variant may be served in besides the image name's own (PNG or JPEG). */
export type LeanFormat = "avif" | "webp";

/**
 * The storage key of an image's lean original (ADR 015): the capped WebP kept in place of the
 * uploaded bytes, e.g. "avatar/<id>.png.webp" for the image named "avatar/<id>.png". Originals
 * stored before ADR 015 live under the name itself, in its own format.
 */
export function masterKey(name: string): string {
  return `${name}.webp`;
}

/**
 * Where a browser's PUT to a presigned bucket URL lands (ADR 018): a key no image route reads, so
 * the bytes are never served before confirmUpload has checked them and stored the lean original.
 */
export function incomingKey(name: string): string {
  return `incoming/${name}`;
}

/**
 * The storage key of a resized variant of an image: in the name's own format (PNG or JPEG)
 * under variants/{size}/{name} as before, or in a lean format under variants/{size}/{name}.{fmt}.
 * The size "orig" is the full (capped) original in that format.
 */
export function variantKey(size: string, name: string, format: LeanFormat | null = null): string {
  return format ? `variants/${size}/${name}.${format}` : `variants/${size}/${name}`;
}

/** Every key a variant of `name` at `size` may be stored under. */
export function variantKeys(size: string, name: string): string[] {
  return [variantKey(size, name), variantKey(size, name, "avif"), variantKey(size, name, "webp")];
}

/**
 * The best format the browser says it accepts, from its Accept header: AVIF, then WebP, else null
 * (the image's own PNG or JPEG). A type with q=0 is refused; wildcards (image/*, * / *) do not
 * count, since browsers that cannot decode AVIF send them too.
 */
export function negotiateFormat(accept: string | null | undefined): LeanFormat | null {
  if (!accept) return null;
  const accepted = new Set<string>();
  for (const part of accept.toLowerCase().split(",")) {
    const [type = "", ...params] = part.split(";").map((s) => s.trim());
    const q = params.find((p) => p.startsWith("q="));
    if (q !== undefined && !(Number(q.slice(2)) > 0)) continue;
    accepted.add(type);
  }
  if (accepted.has("image/avif")) return "avif";
  if (accepted.has("image/webp")) return "webp";
  return null;
}

/**
 * The headers of a stored image besides its type and length. Names are immutable (a crop makes a
 * new one), hence the year of caching; the format depends on the request's Accept header, hence
 * Vary (so a shared cache keeps one copy per format); nosniff and a CSP that allows nothing keep a
 * browser from ever running it.
 */
export const IMAGE_HEADERS: Readonly<Record<string, string>> = {
  "cache-control": "public, max-age=31536000, immutable",
  vary: "Accept",
  "x-content-type-options": "nosniff",
  "content-security-policy": "default-src 'none'",
};
