import "server-only";
import { imageName } from "@/lib/schemas/common";
import { MAX_UPLOAD_BYTES, UPLOAD_TYPES } from "@/lib/schemas/upload";
import { db } from "@/lib/server/db";
import { ApiError } from "@/lib/server/http/errors";
import { readBodyBytes } from "@/lib/server/http/http";
import { getStorage } from "@/lib/server/storage";
import { prepareAvatarThumbnail } from "./get-resized-image";
import { checkImage, NOT_AN_IMAGE, type ImageType } from "./image-check";
import { masterKey } from "./image-files";
import { getUploadUrlKey, verifyUploadSignature } from "./signed-url";

export const TOO_BIG = "Files must be under 10MB in size";
export const ALREADY_USED = "This upload URL has already been used. Please upload the file again.";

function mediaType(header: string | null): ImageType | null {
  const type = (header ?? "").split(";")[0]?.trim().toLowerCase();
  return UPLOAD_TYPES.find((t) => t === type) ?? null;
}

/** The refusal of a file whose type is not the one its upload URL was issued for. */
export const wrongTypeError = (expected: string) =>
  new ApiError(400, `This upload URL expects a file of type ${expected}`);

/**
 * Checks an upload's bytes (real type, pixels, polyglots, one decode; see checkImage), then
 * flips its row PENDING→TEMP in one conditional update; only the caller that wins that flip
 * stores the lean original. Answers whether this caller stored it (false: another had already).
 * A refused file throws and leaves the row PENDING, so the URL is not used up.
 */
export async function storeCheckedUpload(
  filename: string,
  bytes: Buffer,
  type: ImageType,
): Promise<boolean> {
  const image = await checkImage(bytes, type);
  const claimed = await db.upload.updateMany({
    where: { id: filename, status: "PENDING" },
    data: { status: "TEMP", size: image.bytes.length, width: image.width, height: image.height },
  });
  if (claimed.count !== 1) return false;
  try {
    await getStorage().put(masterKey(filename), image.bytes, image.storedType);
  } catch (error) {
    // Give the URL back, so the client's retry can still succeed.
    await db.upload.updateMany({
      where: { id: filename, status: "TEMP" },
      data: { status: "PENDING", size: null, width: null, height: null },
    });
    throw error;
  }
  await prepareAvatarThumbnail(filename);
  return true;
}

/**
 * Accepts the one PUT a signed upload URL allows. The signature and expiry are checked first, then
 * that the URL is unused, then the body (storeCheckedUpload): a refused file does not use the URL
 * up, an accepted one does. Headers such as x-amz-acl and x-amz-tagging are ignored; TEMP is our
 * "temp=true".
 */
export async function receiveUpload(
  filename: string,
  req: Request,
  now: Date = new Date(),
): Promise<{ filename: string }> {
  if (!imageName.safeParse(filename).success) throw new ApiError(404, "Not found");
  const query = new URL(req.url).searchParams;
  verifyUploadSignature(
    await getUploadUrlKey(),
    filename,
    { expires: query.get("expires"), signature: query.get("signature") },
    now,
  );

  const type = mediaType(req.headers.get("content-type"));
  if (!type) throw new ApiError(400, NOT_AN_IMAGE);
  const upload = await db.upload.findUnique({
    where: { id: filename },
    select: { status: true, contentType: true },
  });
  if (!upload) {
    throw new ApiError(404, "This upload URL is no longer valid. Please upload the file again.");
  }
  if (upload.status !== "PENDING") throw new ApiError(409, ALREADY_USED);
  if (upload.contentType !== type) throw wrongTypeError(upload.contentType);

  const bytes = await readBodyBytes(req, MAX_UPLOAD_BYTES, TOO_BIG);
  if (!(await storeCheckedUpload(filename, bytes, type))) throw new ApiError(409, ALREADY_USED);
  return { filename };
}
