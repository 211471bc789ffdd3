import "server-only";
import { randomUUID } from "node:crypto";
import { getEnv } from "@/lib/env";
import type { UPLOAD_DIRS, UPLOAD_TYPES } from "@/lib/schemas/upload";
import { db } from "@/lib/server/db";
import { UPLOAD_URLS_PER_ACCOUNT, enforceRateLimit } from "@/lib/server/rate-limit";
import { getStorage } from "@/lib/server/storage";
import { scheduleTemporaryUploadCleanup } from "./cleanup-temporary-uploads";
import { incomingKey } from "./image-files";
import { getUploadUrlKey, signUploadPath, UPLOAD_URL_LIFETIME_MS } from "./signed-url";

export const EXTENSIONS = { "image/png": "png", "image/jpeg": "jpg" } as const;

/**
 * Reserves a file name (a PENDING upload) and answers it with a URL that accepts its PUT within
 * 15 minutes: on a bucket with direct uploads, a presigned URL to incomingKey(name), whose file
 * PUT /api/upload/confirm then checks (ADR 018); otherwise a URL on APP_URL signed by Heirloom,
 * whose PUT is checked at once. Never on the request's Host: behind a proxy that rewrites it
 * (nginx's default) that is the internal address, and the browser's PUT would go nowhere (22.7).
 */
export async function createUploadUrl(input: {
  ownerId: string;
  type: (typeof UPLOAD_TYPES)[number];
  dir: (typeof UPLOAD_DIRS)[number];
  now?: Date;
}): Promise<{ filename: string; uploadURL: string }> {
  // Each URL reserves a row until it is used or swept: limited per account (issue 22.6).
  await enforceRateLimit(UPLOAD_URLS_PER_ACCOUNT, input.ownerId);
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
    : `${getEnv().APP_URL}${signUploadPath(await getUploadUrlKey(), filename, urlExpiresAt)}`;
  scheduleTemporaryUploadCleanup(now);
  return { filename, uploadURL };
}
