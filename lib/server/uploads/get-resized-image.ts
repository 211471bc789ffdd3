import "server-only";
import sharp from "sharp";
import { imageName } from "@/lib/schemas/common";
import { IMAGE_SIZES, MAX_UPLOAD_PIXELS } from "@/lib/schemas/upload";
import { ApiError } from "@/lib/server/errors";
import { logger } from "@/lib/server/logger";
import { getStorage } from "@/lib/server/storage";
import { variantKey } from "./delete-upload-files";
import { IMAGE_NOT_FOUND, type ServedImage } from "./get-image";

type ImageSize = (typeof IMAGE_SIZES)[number];
const isImageSize = (size: string): size is ImageSize => IMAGE_SIZES.some((s) => s === size);

/** Resizes in flight in this process, so concurrent first requests make a variant once. */
const making = new Map<string, Promise<ServedImage | null>>();

async function makeVariant(size: ImageSize, name: string): Promise<ServedImage | null> {
  const storage = getStorage();
  const original = await storage.get(name);
  if (!original) return null;
  const [width, height] = size.split("x").map(Number);
  const resized = sharp(await original.bytes(), { limitInputPixels: MAX_UPLOAD_PIXELS }).resize(
    width,
    height,
    { fit: "cover" },
  );
  const bytes = await (
    original.contentType === "image/png" ? resized.png() : resized.jpeg({ quality: 85 })
  ).toBuffer();
  // Every maker writes the same bytes, and storage writes are atomic (temp file + rename on disk,
  // overwrite on Blob), so racing processes cannot leave a torn variant behind.
  await storage.put(variantKey(size, name), bytes, original.contentType);
  return { body: bytes, contentType: original.contentType, size: bytes.length };
}

/**
 * An image at one of the allow-listed sizes (cropped to fill, sharp's `fit: cover`). The variant
 * is made on the first request and stored under variants/{W}x{H}/; later requests read it back.
 */
export async function getResizedImage(size: string, name: string): Promise<ServedImage> {
  if (!isImageSize(size)) {
    throw new ApiError(404, `Images are served only at these sizes: ${IMAGE_SIZES.join(", ")}`);
  }
  if (!imageName.safeParse(name).success) throw new ApiError(404, IMAGE_NOT_FOUND);
  const key = variantKey(size, name);
  const cached = await getStorage().get(key);
  if (cached) return { body: cached.stream(), contentType: cached.contentType, size: cached.size };

  let pending = making.get(key);
  if (!pending) {
    pending = makeVariant(size, name).finally(() => making.delete(key));
    making.set(key, pending);
  }
  const made = await pending;
  if (!made) throw new ApiError(404, IMAGE_NOT_FOUND);
  return made;
}

/** The size the editor's canvas and image export ask for every avatar at. */
const AVATAR_THUMBNAIL: ImageSize = "100x100";

/**
 * Makes an avatar's thumbnail as soon as the avatar is stored, so the first export of a big tree
 * does not wait for hundreds of resizes (5 s for 1,000 never-shown avatars). Best effort: a
 * failure is logged and the thumbnail is made on its first request instead, as before.
 */
export async function prepareAvatarThumbnail(name: string): Promise<void> {
  if (!name.startsWith("avatar/")) return;
  const key = variantKey(AVATAR_THUMBNAIL, name);
  try {
    let pending = making.get(key);
    if (!pending) {
      pending = makeVariant(AVATAR_THUMBNAIL, name).finally(() => making.delete(key));
      making.set(key, pending);
    }
    await pending;
  } catch (error) {
    logger.warn({ err: error, name }, "could not make the avatar thumbnail");
  }
}
