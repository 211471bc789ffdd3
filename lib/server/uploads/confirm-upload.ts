import "server-only";
import { MAX_UPLOAD_BYTES } from "@/lib/schemas/upload";
import { db } from "@/lib/server/db";
import { ApiError } from "@/lib/server/http/errors";
import { getStorage } from "@/lib/server/storage";
import type { ImageType } from "./image-check";
import { incomingKey } from "./image-files";
import { storeCheckedUpload, TOO_BIG, wrongTypeError } from "./receive-upload";

export const NOTHING_ARRIVED = "The file did not arrive. Please upload it again.";

/**
 * The second step of an upload to a presigned bucket URL (ADR 018): the browser has PUT its file
 * to incomingKey(image), which no image route reads; this reads it back and runs every check of
 * ADR 004 on it (size, declared and real type, header pixels, polyglots, one full decode), then
 * stores the lean original (ADR 015) and removes the incoming object. Only then is the image
 * served. A refused file is removed and leaves the upload PENDING, so a retry within the URL's
 * life can still succeed. Confirming an upload that is already checked (TEMP or USED, e.g. one
 * PUT to Heirloom itself) answers its name again. Someone else's or a missing upload is 404.
 */
export async function confirmUpload(input: {
  ownerId: string;
  image: string;
}): Promise<{ filename: string }> {
  const filename = input.image;
  const upload = await db.upload.findFirst({
    where: { id: filename, ownerId: input.ownerId },
    select: { status: true, contentType: true },
  });
  if (!upload) throw new ApiError(404, "That image was not found");
  if (upload.status !== "PENDING") return { filename };

  const storage = getStorage();
  const key = incomingKey(filename);
  const incoming = await storage.get(key);
  if (!incoming) throw new ApiError(400, NOTHING_ARRIVED);
  const refuse = async (error: ApiError) => {
    await storage.delete(key);
    return error;
  };
  if (incoming.size > MAX_UPLOAD_BYTES) {
    await incoming.stream().cancel();
    throw await refuse(new ApiError(413, TOO_BIG));
  }
  // The signed Content-Type makes the bucket refuse any other type; a store that does not check
  // signatures (s3rver) is caught here.
  if (incoming.contentType.split(";")[0]?.trim().toLowerCase() !== upload.contentType) {
    await incoming.stream().cancel();
    throw await refuse(wrongTypeError(upload.contentType));
  }
  const bytes = await incoming.bytes();
  if (bytes.length > MAX_UPLOAD_BYTES) throw await refuse(new ApiError(413, TOO_BIG));
  try {
    await storeCheckedUpload(filename, bytes, upload.contentType as ImageType);
  } catch (error) {
    if (error instanceof ApiError) throw await refuse(error);
    throw error;
  }
  await storage.delete(key);
  return { filename };
}
