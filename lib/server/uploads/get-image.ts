import "server-only";
import { imageName } from "@/lib/schemas/common";
import { ApiError } from "@/lib/server/errors";
import { getStorage } from "@/lib/server/storage";

export const IMAGE_NOT_FOUND = "Image not found";

/** An image ready to send: its bytes (streamed or in memory), type and length. */
export interface ServedImage {
  body: ReadableStream<Uint8Array> | Buffer;
  contentType: string;
  size: number;
}

/**
 * The response for a stored image. Names are immutable (a crop makes a new one), hence the year
 * of caching; nosniff and a CSP that allows nothing keep a browser from ever running it.
 */
export function imageResponse(image: ServedImage): Response {
  const body = Buffer.isBuffer(image.body) ? new Uint8Array(image.body) : image.body;
  return new Response(body, {
    status: 200,
    headers: {
      "content-type": image.contentType,
      "content-length": String(image.size),
      "cache-control": "public, max-age=31536000, immutable",
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'",
    },
  });
}

/** An original upload, e.g. "avatar/<id>.png". Public: anyone with the name may read it. */
export async function getImage(name: string): Promise<ServedImage> {
  if (!imageName.safeParse(name).success) throw new ApiError(404, IMAGE_NOT_FOUND);
  const stored = await getStorage().get(name);
  if (!stored) throw new ApiError(404, IMAGE_NOT_FOUND);
  return { body: stored.stream(), contentType: stored.contentType, size: stored.size };
}
