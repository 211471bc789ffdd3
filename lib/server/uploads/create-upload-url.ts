import "server-only";
import { randomUUID } from "node:crypto";
import { getEnv } from "@/lib/env";
import type { UPLOAD_DIRS, UPLOAD_TYPES } from "@/lib/schemas/upload";
import { db } from "@/lib/server/db";
import { getStorage } from "@/lib/server/storage";
import { scheduleTemporaryUploadCleanup } from "./cleanup-temporary-uploads";
import { incomingKey } from "./image-files";
import { getUploadUrlKey, signUploadPath, UPLOAD_URL_LIFETIME_MS } from "./signed-url";

export const EXTENSIONS = { "image/png": "png", "image/jpeg": "jpg" } as const;

/**
 * Reserves a file name (a PENDING upload) and answers it with a URL that accepts its PUT within
 * 15 minutes: on a bucket with direct uploads, a presigned URL to incomingKey(name), whose file
 * PUT /api/upload/confirm then checks (ADR 018); otherwise a URL on `origin` (the caller's own
 * origin, so the browser's PUT is same-origin) signed by Heirloom, whose PUT is checked at once.
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
  const storage = getStorage();
  const uploadURL = storage.signedUploadUrl
    ? await storage.signedUploadUrl(incomingKey(filename), input.type, urlExpiresAt, now)
    : `${input.origin ?? getEnv().APP_URL}${signUploadPath(await getUploadUrlKey(), filename, urlExpiresAt)}`;
  scheduleTemporaryUploadCleanup(now);
  return { filename, uploadURL };
}
