import "server-only";
import { imageName } from "@/lib/schemas/common";
import { ApiError } from "@/lib/server/errors";
import { getStorage } from "@/lib/server/storage";
import { IMAGE_HEADERS } from "./image-files";

export const IMAGE_NOT_FOUND = "Image not found";

/** An image ready to send: its bytes (streamed or in memory), type and length. */
export interface ServedImage {
  body: ReadableStream<Uint8Array> | Buffer;
  contentType: string;
  size: number;
}

/** The response for a stored image, with IMAGE_HEADERS. */
export function imageResponse(image: ServedImage): Response {
  const body = Buffer.isBuffer(image.body) ? new Uint8Array(image.body) : image.body;
  return new Response(body, {
    status: 200,
    headers: {
      "content-type": image.contentType,
      "content-length": String(image.size),
      ...IMAGE_HEADERS,
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
