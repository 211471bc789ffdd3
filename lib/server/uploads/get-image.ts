import "server-only";
import { imageName } from "@/lib/schemas/common";
import { ApiError } from "@/lib/server/http/errors";
import { getStorage } from "@/lib/server/storage";
import { getResizedImage } from "./get-resized-image";
import { type LeanFormat } from "./image-files";
import { IMAGE_NOT_FOUND, type ServedImage } from "./served-image";

export { IMAGE_NOT_FOUND, imageResponse, type ServedImage } from "./served-image";

/**
 * An original upload, e.g. "avatar/<id>.png", at its stored (capped) size. Public: anyone with the
 * name may read it. A browser that accepts AVIF or WebP gets the stored WebP as it is; any other
 * gets it in the name's own format, made once and kept as the "orig" variant (ADR 015). An image
 * stored before ADR 015 is served as it was stored.
 */
export async function getImage(name: string, format: LeanFormat | null): Promise<ServedImage> {
  if (!imageName.safeParse(name).success) throw new ApiError(404, IMAGE_NOT_FOUND);
  if (format) return getResizedImage("orig", name, "webp");
  const legacy = await getStorage().get(name);
  if (legacy) return { body: legacy.stream(), contentType: legacy.contentType, size: legacy.size };
  return getResizedImage("orig", name, null);
}
