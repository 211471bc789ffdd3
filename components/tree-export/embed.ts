import { avatarUrl, DEFAULT_AVATAR, type ImageSize } from "@/components/image-manager/image-url";
import { DEFAULT_AVATAR_KEY } from "./tree-svg";

/** The font embedded in exported images (OFL; see public/fonts/LICENSE-Geist.txt). */
export const EXPORT_FONT_URL = "/fonts/Geist-Regular.ttf";
/** Avatars fetched at the same time. */
export const AVATAR_FETCHES = 8;

/** A blob as a data: URI (the browser encodes it natively). */
export function blobToDataUri(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error ?? new Error("Could not read the image"));
    reader.readAsDataURL(blob);
  });
}

async function fetchDataUri(url: string, type?: string): Promise<string> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  const blob = await response.blob();
  return blobToDataUri(type ? new Blob([blob], { type }) : blob);
}

let font: Promise<string> | null = null;

/** The export font as a data: URI, fetched once per page. */
export function loadExportFont(): Promise<string> {
  font ??= fetchDataUri(EXPORT_FONT_URL, "font/ttf").catch((error: unknown) => {
    font = null;
    throw error;
  });
  return font;
}

/** The avatar size embedded: the small cached variant unless the scale would show it blurred. */
export function avatarVariant(scale: number): ImageSize {
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

/**
 * Each distinct avatar as a data: URI, fetched once, a few at a time. An avatar that cannot be
 * fetched is left out, and the default avatar is drawn in its place.
 */
export async function loadAvatars(
  keys: Iterable<string>,
  scale: number,
): Promise<Map<string, string>> {
  const size = avatarVariant(scale);
  const list = [...new Set([...keys, DEFAULT_AVATAR_KEY])];
  const uris = await mapLimited(list, AVATAR_FETCHES, (key) =>
    avatarDataUri(key === DEFAULT_AVATAR_KEY ? DEFAULT_AVATAR : avatarUrl(key, size)),
  );
  const avatars = new Map<string, string>();
  list.forEach((key, index) => {
    const uri = uris[index];
    if (uri) avatars.set(key, uri);
  });
  return avatars;
}
