import "server-only";
import { randomUUID } from "node:crypto";
import path from "node:path";
import type { z } from "zod";
import type { cropBody } from "@/lib/schemas/upload";
import { db } from "@/lib/server/db";
import { ApiError } from "@/lib/server/http/errors";
import { getStorage } from "@/lib/server/storage";
import { prepareAvatarThumbnail } from "./get-resized-image";
import { masterKey } from "./image-files";
import { encodeMaster, openStored } from "./lean-image";
import { getStoredOriginal } from "./stored-original";

/**
 * Cuts `cropData` out of one of the caller's own uploads (TEMP or USED) into a new TEMP upload in
 * the same directory, under a name of the same extension, stored lean (ADR 015). The rectangle is
 * in the stored original's pixels (what the cropper shows). The rectangle must lie inside the image. The aspect ratio is not
 * enforced: avatars are cropped square by the client, and a non-square avatar is merely shown
 * squeezed into 200x200 by the resize, which harms nobody.
 */
export async function cropImage(input: {
  ownerId: string;
  image: string;
  cropData: z.output<typeof cropBody>["cropData"];
}): Promise<{ filename: string }> {
  const source = await db.upload.findFirst({
    where: { id: input.image, ownerId: input.ownerId, status: { in: ["TEMP", "USED"] } },
    select: { id: true, dir: true, contentType: true },
  });
  const stored = source && (await getStoredOriginal(source.id));
  if (!source || !stored) throw new ApiError(404, "That image was not found");

  const bytes = await stored.object.bytes();
  const { width = 0, height = 0 } = await openStored(bytes).metadata();
  const { x, y, width: w, height: h } = input.cropData;
  if (x + w > width || y + h > height) {
    throw new ApiError(
      400,
      `The crop area (${w}x${h} at ${x},${y}) must lie inside the image (${width}x${height})`,
    );
  }

  const cut = openStored(bytes).extract({ left: x, top: y, width: w, height: h });
  const { data: output, info } = await encodeMaster(cut);

  const filename = `${source.dir}/${randomUUID()}${path.extname(source.id)}`;
  // PENDING until the bytes are stored, so a crash in between leaves a row the cleanup removes.
  await db.upload.create({
    data: {
      id: filename,
      ownerId: input.ownerId,
      dir: source.dir,
      contentType: source.contentType,
      status: "PENDING",
      size: output.length,
      width: info.width,
      height: info.height,
      urlExpiresAt: new Date(),
    },
  });
  await getStorage().put(masterKey(filename), output, "image/webp");
  await db.upload.update({ where: { id: filename }, data: { status: "TEMP" } });
  await prepareAvatarThumbnail(filename);
  return { filename };
}
