import "server-only";
import { db } from "@/lib/server/db";
import { deleteUploadFiles } from "./delete-upload-files";

/**
 * A deleted tree is kept this long so the provider can recover it (see Tree.deletedAt); its cover
 * and its people's avatars are kept as long, then collected.
 */
export const DELETED_TREE_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
/**
 * A used image touched (claimed) this recently is never collected, so a save that is claiming it
 * right now cannot lose it between our mark and our sweep.
 */
export const COLLECTION_GRACE_MS = 60 * 60 * 1000;

/** An image name as it appears in stored JSON (lib/schemas/common.ts imageName). */
const IMAGE_NAME_PATTERN = "(?:avatar|cover)/[A-Za-z0-9_-]+\\.(?:png|jpe?g)";

/**
 * Mark and sweep of used images (ADR 015). Marked, and so kept:
 * - the cover of every tree, and the avatar of every person, whose tree is not deleted, or was
 *   deleted less than DELETED_TREE_RETENTION_MS ago;
 * - every image name anywhere in a published snapshot (PublishedTree.tree and .people), which
 *   keeps showing what it showed when it was published even after the live tree changed.
 * Swept: USED uploads marked by none of these and untouched for COLLECTION_GRACE_MS, i.e.
 * replaced avatars and covers, and the images of deleted people and (after retention) trees.
 * Rows go first, in one statement that marks and sweeps together, then the stored bytes of every
 * row that went: the original (lean or legacy) and every variant in every format. Temporary
 * uploads are cleanupTemporaryUploads' work. A crash between the two steps leaves orphan bytes,
 * never a dangling reference.
 */
export async function collectUnusedImages(
  now: Date = new Date(),
): Promise<{ deleted: number; names: string[] }> {
  const keepDeletedSince = new Date(now.getTime() - DELETED_TREE_RETENTION_MS);
  const touchedBefore = new Date(now.getTime() - COLLECTION_GRACE_MS);
  const rows = await db.$queryRaw<{ id: string }[]>`
    WITH live AS (
      SELECT "id", "cover" FROM "Tree"
      WHERE "deletedAt" IS NULL OR "deletedAt" > ${keepDeletedSince}
    ), marked AS (
      SELECT "cover" AS name FROM live WHERE "cover" IS NOT NULL
      UNION
      SELECT p."avatar" FROM "Person" p JOIN live ON live."id" = p."treeId"
      WHERE p."avatar" IS NOT NULL
      UNION
      SELECT m[1] FROM "PublishedTree" pt,
        LATERAL regexp_matches(pt."tree"::text || ' ' || pt."people"::text,
                               ${`(${IMAGE_NAME_PATTERN})`}, 'g') AS m
    )
    DELETE FROM "Upload" u
    WHERE u."status" = 'USED' AND u."updatedAt" < ${touchedBefore}
      AND NOT EXISTS (SELECT 1 FROM marked WHERE marked.name = u."id")
    RETURNING u."id"`;
  const names = rows.map((r) => r.id);
  await deleteUploadFiles(names);
  return { deleted: names.length, names };
}
