import "server-only";
import { db } from "@/lib/server/db";
import { logger } from "@/lib/server/logger";
import { getStorage } from "@/lib/server/storage";
import { deleteUploadFiles } from "./delete-upload-files";
import { incomingKey } from "./image-files";

/** Uploads nothing uses (TEMP) and URLs never used (PENDING) are removed after this long. */
export const TEMPORARY_UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;
/** The opportunistic cleanup runs at most this often per process. */
export const CLEANUP_INTERVAL_MS = 60 * 60 * 1000;
const BATCH_SIZE = 200;
const TEMPORARY = ["PENDING", "TEMP"] as const;

const INCOMING = incomingKey("");

/**
 * Deletes temporary uploads created more than a day before `now`: first the rows, then the stored
 * bytes of the rows that really went. A row claimed by a tree or person in between becomes USED,
 * is not deleted, and keeps its file. A crash between the two steps leaves orphan bytes (wasted
 * disk, never a dangling reference). Then sweeps the files browsers PUT to presigned bucket URLs
 * (sweepIncoming). `strays` counts the incoming files swept.
 */
export async function cleanupTemporaryUploads(
  now: Date = new Date(),
): Promise<{ deleted: number; strays: number }> {
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
  return { deleted, strays: await sweepIncoming() };
}

/**
 * Removes every file under incoming/ (ADR 018) that no confirmUpload will read: one whose upload
 * is no longer PENDING (confirmed, then PUT again while its URL still lived), or gone, or whose
 * key names no upload at all. A PENDING upload's file waits for its confirm; the row goes a day
 * after it was made, and its file with it. Answers how many files went.
 */
export async function sweepIncoming(): Promise<number> {
  const storage = getStorage();
  let swept = 0;
  let batch: string[] = [];
  const sweep = async () => {
    const pending = new Set(
      (
        await db.upload.findMany({
          where: { id: { in: batch.map((key) => key.slice(INCOMING.length)) }, status: "PENDING" },
          select: { id: true },
        })
      ).map((u) => incomingKey(u.id)),
    );
    const strays = batch.filter((key) => !pending.has(key));
    await Promise.all(strays.map((key) => storage.delete(key)));
    swept += strays.length;
    batch = [];
  };
  for await (const { key } of storage.list(INCOMING)) {
    batch.push(key);
    if (batch.length >= BATCH_SIZE) await sweep();
  }
  if (batch.length > 0) await sweep();
  return swept;
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
    .then(({ deleted, strays }) => {
      if (deleted + strays > 0) logger.info({ deleted, strays }, "temporary uploads cleaned up");
    })
    .catch((error: unknown) => logger.warn({ err: error }, "temporary upload cleanup failed"))
    .finally(() => {
      running = false;
    });
  return true;
}
