import path from "node:path";

const TYPES_BY_EXTENSION: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".webp": "image/webp",
  ".avif": "image/avif",
};

/** The content type local disk serves for a key; it keeps no metadata beside the bytes. */
export function contentTypeForKey(key: string): string {
  return TYPES_BY_EXTENSION[path.extname(key).toLowerCase()] ?? "application/octet-stream";
}
