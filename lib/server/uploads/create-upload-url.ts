import "server-only";
import { randomUUID } from "node:crypto";
import { getEnv } from "@/lib/env";
import type { UPLOAD_DIRS, UPLOAD_TYPES } from "@/lib/schemas/upload";
import { db } from "@/lib/server/db";
import { scheduleTemporaryUploadCleanup } from "./cleanup-temporary-uploads";
import { getUploadUrlKey, signUploadPath, UPLOAD_URL_LIFETIME_MS } from "./signed-url";

export const EXTENSIONS = { "image/png": "png", "image/jpeg": "jpg" } as const;

/**
 * Reserves a file name (a PENDING upload) and answers it with a signed URL on `origin` (the
 * caller's own origin, so the browser's PUT is same-origin) that accepts one PUT within 15 minutes.
 */
export async function createUploadUrl(input: {
  ownerId: string;
  type: (typeof UPLOAD_TYPES)[number];
  dir: (typeof UPLOAD_DIRS)[number];
  origin?: string;
  now?: Date;
}): Promise<{ filename: string; uploadURL: string }> {
  const now = input.now ?? new Date();
  const filename = `${input.dir}/${randomUUID()}.${EXTENSIONS[input.type]}`;
  const urlExpiresAt = new Date(now.getTime() + UPLOAD_URL_LIFETIME_MS);
  await db.upload.create({
    data: {
      id: filename,
      ownerId: input.ownerId,
      dir: input.dir,
      contentType: input.type,
      status: "PENDING",
      urlExpiresAt,
    },
  });
  const path = signUploadPath(await getUploadUrlKey(), filename, urlExpiresAt);
  scheduleTemporaryUploadCleanup(now);
  return { filename, uploadURL: `${input.origin ?? getEnv().APP_URL}${path}` };
}
