import "server-only";
import { imageName } from "@/lib/schemas/common";
import { IMAGE_SIZES } from "@/lib/schemas/upload";
import { ApiError } from "@/lib/server/http/errors";
import { logger } from "@/lib/server/logger";
import { getStorage } from "@/lib/server/storage";
import { contentTypeForKey } from "@/lib/server/storage/content-type";
import { type LeanFormat, variantKey } from "./image-files";
import { encodeVariant, openStored, variantContentType } from "./lean-image";
import { IMAGE_NOT_FOUND, type ServedImage } from "./served-image";
import { getStoredOriginal } from "./stored-original";

type ImageSize = (typeof IMAGE_SIZES)[number];
/** An allow-listed size, or "orig": the whole stored original, in another format. */
type VariantSize = ImageSize | "orig";
const isImageSize = (size: string): size is ImageSize => IMAGE_SIZES.some((s) => s === size);

/** Resizes in flight in this process, so concurrent first requests make a variant once. */
const making = new Map<string, Promise<ServedImage | null>>();

async function makeVariant(
  size: VariantSize,
  name: string,
  format: LeanFormat | null,
): Promise<ServedImage | null> {
  const storage = getStorage();
  const original = await getStoredOriginal(name);
  if (!original) return null;
  const ownType = contentTypeForKey(name);
  const pipeline = openStored(await original.object.bytes());
  if (size !== "orig") {
    const [width, height] = size.split("x").map(Number);
    pipeline.resize(width, height, { fit: "cover" });
  }
  const bytes = await encodeVariant(pipeline, format, ownType);
  const contentType = variantContentType(format, ownType);
  // Every maker writes the same bytes, and storage writes are atomic (temp file + rename on disk,
  // overwrite on Blob and S3), so racing processes cannot leave a torn variant behind.
  await storage.put(variantKey(size, name, format), bytes, contentType);
  return { body: bytes, contentType, size: bytes.length };
}

function makeOnce(size: VariantSize, name: string, format: LeanFormat | null) {
  const key = variantKey(size, name, format);
  let pending = making.get(key);
  if (!pending) {
    pending = makeVariant(size, name, format).finally(() => making.delete(key));
    making.set(key, pending);
  }
  return pending;
}

/**
 * An image at one of the allow-listed sizes (cropped to fill, sharp's `fit: cover`), in `format`
 * (AVIF or WebP, for a browser that accepts it) or else in the name's own PNG or JPEG. The variant
 * is made on the first request and stored under variants/{W}x{H}/; later requests read it back.
 * "orig" with WebP is the stored original itself.
 */
export async function getResizedImage(
  size: string,
  name: string,
  format: LeanFormat | null = null,
): Promise<ServedImage> {
  if (size !== "orig" && !isImageSize(size)) {
    throw new ApiError(404, `Images are served only at these sizes: ${IMAGE_SIZES.join(", ")}`);
  }
  if (!imageName.safeParse(name).success) throw new ApiError(404, IMAGE_NOT_FOUND);
  const storage = getStorage();
  if (size === "orig" && format) {
    const stored = await getStoredOriginal(name);
    if (!stored) throw new ApiError(404, IMAGE_NOT_FOUND);
    const { object } = stored;
    return { body: object.stream(), contentType: object.contentType, size: object.size };
  }
  const cached = await storage.get(variantKey(size, name, format));
  if (cached) return { body: cached.stream(), contentType: cached.contentType, size: cached.size };
  const made = await makeOnce(size, name, format);
  if (!made) throw new ApiError(404, IMAGE_NOT_FOUND);
  return made;
}

/** The size the editor's canvas and image export ask for every avatar at. */
const AVATAR_THUMBNAIL: ImageSize = "100x100";

/**
 * Makes an avatar's thumbnail as soon as the avatar is stored, so the first export of a big tree
 * does not wait for hundreds of resizes (5 s for 1,000 never-shown avatars). Best effort: a
 * failure is logged and the thumbnail is made on its first request instead, as before. The export
 * embeds the name's own format (PNG or JPEG), which every SVG viewer reads.
 */
export async function prepareAvatarThumbnail(name: string): Promise<void> {
  if (!name.startsWith("avatar/")) return;
  try {
    await makeOnce(AVATAR_THUMBNAIL, name, null);
  } catch (error) {
    logger.warn({ err: error, name }, "could not make the avatar thumbnail");
  }
}
