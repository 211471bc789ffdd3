import { avatarUrl, DEFAULT_AVATAR } from "@/lib/image-url";
import { fetchTreeAvatars } from "@/lib/client/api";
import type { AvatarImage } from "./draw-tree";
import { DEFAULT_AVATAR_KEY } from "./tree-scene";
import { EXPORT_FONT_FAMILY } from "./tree-svg";

/** The font embedded in exported images (OFL; see public/fonts/LICENSE-Geist.txt). */
export const EXPORT_FONT_URL = "/fonts/Geist-Regular.ttf";
/** Avatars fetched at the same time, one request each. */
export const AVATAR_FETCHES = 8;
/**
 * From this many distinct avatars on, they come in one request for the whole tree
 * (GET /api/trees/{id}/avatars) rather than one request each.
 */
export const AVATAR_BUNDLE_MIN = 12;

/** A blob as a data: URI (the browser encodes it natively). */
export function blobToDataUri(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error ?? new Error("Could not read the image"));
    reader.readAsDataURL(blob);
  });
}

/** The bytes and type of a base64 data: URI; null for anything else. */
export function decodeDataUri(uri: string): { type: string; bytes: Uint8Array } | null {
  const match = /^data:([^;,]+)(?:;[^;,=]+=[^;,]*)*;base64,/.exec(uri);
  if (!match) return null;
  let binary: string;
  try {
    binary = atob(uri.slice(match[0].length));
  } catch {
    return null;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return { type: match[1]!.toLowerCase(), bytes };
}

async function fetchDataUri(url: string, type?: string): Promise<string> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  const blob = await response.blob();
  return blobToDataUri(type ? new Blob([blob], { type }) : blob);
}

/** Caches a promise once per page; a failure is forgotten so the next call tries again. */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let cached: Promise<T> | null = null;
  return () => {
    cached ??= make().catch((error: unknown) => {
      cached = null;
      throw error;
    });
    return cached;
  };
}

const loadFontBytes = once(async () => {
  const response = await fetch(EXPORT_FONT_URL);
  if (!response.ok) throw new Error(`${EXPORT_FONT_URL} answered ${response.status}`);
  return response.arrayBuffer();
});

/** The export font as a data: URI (for SVGs), fetched once per page. */
export const loadExportFont = once(async () =>
  blobToDataUri(new Blob([await loadFontBytes()], { type: "font/ttf" })),
);

/**
 * The export font loaded into the page's fonts under EXPORT_FONT_FAMILY, for the PNG painter.
 * Made from the bytes (not a url()), so the page's font-src policy does not apply to it.
 */
export const loadExportFontFace = once(async () => {
  const face = new FontFace(EXPORT_FONT_FAMILY, await loadFontBytes(), {
    weight: "400",
    style: "normal",
  });
  await face.load();
  document.fonts.add(face);
  return face;
});

/** The avatar variants an export embeds. */
export type AvatarSize = "100x100" | "200x200";

/** The avatar size embedded: the small cached variant unless the scale would show it blurred. */
export function avatarVariant(scale: number): AvatarSize {
  // Avatars are drawn at most 60 layout units wide (LAYOUT.avatarRadius * 2).
  return 60 * scale <= 120 ? "100x100" : "200x200";
}

/** Runs `task` over `items`, at most `limit` at a time. */
export async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Avatars already embedded in this page, by address: a second export fetches nothing again. */
const fetched = new Map<string, Promise<string | null>>();
const FETCHED_MAX = 20_000;

function avatarDataUri(url: string): Promise<string | null> {
  let uri = fetched.get(url);
  if (!uri) {
    if (fetched.size >= FETCHED_MAX) fetched.clear();
    uri = fetchDataUri(url).catch(() => {
      fetched.delete(url);
      return null;
    });
    fetched.set(url, uri);
  }
  return uri;
}

interface Bundle {
  /** The avatars the export wanted when the bundle was fetched. */
  asked: ReadonlySet<string>;
  avatars: Promise<ReadonlyMap<string, string>>;
}
/** The tree's avatars in one answer, per tree and size; refetched when a new avatar is wanted. */
const bundles = new Map<string, Bundle>();

/**
 * The avatars of `keys` from one bundle of the tree's avatars. A key the bundle was fetched for
 * but lacks is an image the server cannot read: it is left out (the default avatar is drawn).
 * Null when the bundle cannot be had (the caller fetches the avatars one by one).
 */
async function bundledAvatars(
  treeId: string,
  size: AvatarSize,
  keys: readonly string[],
): Promise<Map<string, string> | null> {
  const id = `${treeId} ${size}`;
  let bundle = bundles.get(id);
  if (!bundle || keys.some((key) => !bundle!.asked.has(key))) {
    const made: Bundle = {
      asked: new Set(keys),
      avatars: fetchTreeAvatars(treeId, size).then((avatars) => new Map(Object.entries(avatars))),
    };
    made.avatars.catch(() => {
      if (bundles.get(id) === made) bundles.delete(id);
    });
    bundles.set(id, made);
    bundle = made;
  }
  try {
    const avatars = await bundle.avatars;
    const found = new Map<string, string>();
    for (const key of keys) {
      const uri = avatars.get(key);
      if (uri) found.set(key, uri);
    }
    return found;
  } catch {
    return null;
  }
}

/**
 * Each distinct avatar as a data: URI. Many avatars of a known tree come in one request for the
 * whole tree; a few (a visible part) are fetched one by one, a few at a time, and kept for the
 * next export. An avatar that cannot be had is left out, and the default avatar is drawn in its
 * place.
 */
export async function loadAvatars(
  keys: Iterable<string>,
  scale: number,
  treeId: string | null = null,
): Promise<Map<string, string>> {
  const size = avatarVariant(scale);
  const stored = [...new Set(keys)].filter((key) => key !== DEFAULT_AVATAR_KEY);
  const defaultAvatar = avatarDataUri(DEFAULT_AVATAR);
  const bundled =
    treeId && stored.length >= AVATAR_BUNDLE_MIN
      ? await bundledAvatars(treeId, size, stored)
      : null;
  const avatars = new Map<string, string>(bundled ?? []);
  if (!bundled) {
    const uris = await mapLimited(stored, AVATAR_FETCHES, (key) =>
      avatarDataUri(avatarUrl(key, size)),
    );
    stored.forEach((key, index) => {
      const uri = uris[index];
      if (uri) avatars.set(key, uri);
    });
  }
  const fallback = await defaultAvatar;
  if (fallback) avatars.set(DEFAULT_AVATAR_KEY, fallback);
  return avatars;
}

/** Decoded avatars by data: URI (names never change, so neither do their images). */
const decoded = new Map<string, Promise<AvatarImage | null>>();
/** About 60 MB of 100×100 bitmaps; past this the cache starts over. */
const DECODED_MAX = 1_500;

async function decodeImage(uri: string): Promise<AvatarImage | null> {
  const data = decodeDataUri(uri);
  if (data && data.type !== "image/svg+xml") {
    try {
      return await createImageBitmap(
        new Blob([data.bytes as Uint8Array<ArrayBuffer>], { type: data.type }),
      );
    } catch {
      return null;
    }
  }
  // SVG (the default avatar) cannot become an ImageBitmap; an <img> draws it.
  const image = new Image();
  image.src = uri;
  try {
    await image.decode();
    return image;
  } catch {
    return null;
  }
}

/** The avatars decoded for drawing on a canvas, each once; one that cannot be decoded is left out. */
export async function decodeAvatars(
  avatars: ReadonlyMap<string, string>,
): Promise<Map<string, AvatarImage>> {
  const entries = [...avatars];
  const fresh = entries.filter(([, uri]) => !decoded.has(uri)).length;
  if (decoded.size + fresh > DECODED_MAX) {
    for (const image of decoded.values()) void image.then((made) => closeImage(made));
    decoded.clear();
  }
  const images = await Promise.all(
    entries.map(([, uri]) => {
      let image = decoded.get(uri);
      if (!image) {
        image = decodeImage(uri);
        if (entries.length <= DECODED_MAX) decoded.set(uri, image);
      }
      return image;
    }),
  );
  const byKey = new Map<string, AvatarImage>();
  entries.forEach(([key], index) => {
    const image = images[index];
    if (image) byKey.set(key, image);
  });
  return byKey;
}

function closeImage(image: AvatarImage | null) {
  if (image && "close" in image && typeof image.close === "function") image.close();
}
