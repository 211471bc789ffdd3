import "server-only";
import { db } from "@/lib/server/db";
import { logger } from "@/lib/server/logger";
import { deleteUploadFiles } from "./delete-upload-files";

/** Uploads nothing uses (TEMP) and URLs never used (PENDING) are removed after this long. */
export const TEMPORARY_UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;
/** The opportunistic cleanup runs at most this often per process. */
export const CLEANUP_INTERVAL_MS = 60 * 60 * 1000;
const BATCH_SIZE = 200;
const TEMPORARY = ["PENDING", "TEMP"] as const;

/**
 * Deletes temporary uploads created more than a day before `now`: first the rows, then the stored
 * bytes of the rows that really went. A row claimed by a tree or person in between becomes USED,
 * is not deleted, and keeps its file. A crash between the two steps leaves orphan bytes (wasted
 * disk, never a dangling reference).
 */
export async function cleanupTemporaryUploads(
  now: Date = new Date(),
): Promise<{ deleted: number }> {
  const where = {
    status: { in: [...TEMPORARY] },
    createdAt: { lt: new Date(now.getTime() - TEMPORARY_UPLOAD_TTL_MS) },
  };
  let deleted = 0;
  for (;;) {
    const batch = await db.upload.findMany({
      where,
      select: { id: true },
      orderBy: { createdAt: "asc" },
      take: BATCH_SIZE,
    });
    const ids = batch.map((u) => u.id);
    if (ids.length === 0) break;
    await db.upload.deleteMany({ where: { ...where, id: { in: ids } } });
    const kept = new Set(
      (await db.upload.findMany({ where: { id: { in: ids } }, select: { id: true } })).map(
        (u) => u.id,
      ),
    );
    const gone = ids.filter((id) => !kept.has(id));
    await deleteUploadFiles(gone);
    deleted += gone.length;
    if (ids.length < BATCH_SIZE) break;
  }
  return { deleted };
}

let lastRunAt = Number.NEGATIVE_INFINITY;
let running = false;

/**
 * Starts `cleanupTemporaryUploads` in the background unless it ran in this process within the
 * last hour. Answers whether it started. Several instances may each run it; it is idempotent.
 */
export function scheduleTemporaryUploadCleanup(now: Date = new Date()): boolean {
  if (running || now.getTime() - lastRunAt < CLEANUP_INTERVAL_MS) return false;
  lastRunAt = now.getTime();
  running = true;
  void cleanupTemporaryUploads(now)
    .then(({ deleted }) => {
      if (deleted > 0) logger.info({ deleted }, "temporary uploads cleaned up");
    })
    .catch((error: unknown) => logger.warn({ err: error }, "temporary upload cleanup failed"))
    .finally(() => {
      running = false;
    });
  return true;
}
