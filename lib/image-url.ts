import type { IMAGE_SIZES } from "@/lib/schemas/upload";

export type ImageSize = (typeof IMAGE_SIZES)[number];

/** Shown when a person has no avatar. */
export const DEFAULT_AVATAR = "/assets/default-avatar.svg";

// Stored names look like "avatar/<id>.png"; each segment is encoded, the slash is kept.
const encodePath = (filename: string) => filename.split("/").map(encodeURIComponent).join("/");

/** A stored image resized by the server, e.g. /api/upload/200x200/avatar/<id>.png. */
export function resizedImageUrl(filename: string, size: ImageSize): string {
  return `/api/upload/${size}/${encodePath(filename)}`;
}

/** A stored image as uploaded. */
export function originalImageUrl(filename: string): string {
  return `/uploads/${encodePath(filename)}`;
}

/** A person's avatar at `size`, or the default avatar. */
export function avatarUrl(filename: string | null | undefined, size: ImageSize = "200x200") {
  return filename ? resizedImageUrl(filename, size) : DEFAULT_AVATAR;
}
