import "server-only";
import { IMAGE_HEADERS } from "./image-files";

// What an image read hands back, shared by get-image.ts and get-resized-image.ts (each imported it
// from the other before: an import circle).

export const IMAGE_NOT_FOUND = "Image not found";

/** An image ready to send: its bytes (streamed or in memory), type and length. */
export interface ServedImage {
  body: ReadableStream<Uint8Array> | Buffer;
  contentType: string;
  size: number;
}

/** The response for a stored image, with IMAGE_HEADERS (Vary: Accept among them). */
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
