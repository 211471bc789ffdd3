import "server-only";
import { objectId } from "@/lib/schemas/common";
import { db } from "@/lib/server/db";
import { galleryChanged } from "./gallery-cache";

/**
 * An operator's hide (npm run gallery:hide): keeps a publication out of the Gallery, or lets it
 * back in (`hidden` false), without touching the owner's tree, publication or choice to be listed.
 * Answers whether the tree is now shown in the Gallery; null when no such publication exists.
 */
export async function setGalleryHidden(
  treeId: string,
  hidden: boolean,
): Promise<{ listed: boolean; shown: boolean } | null> {
  if (!objectId.safeParse(treeId).success) return null;
  const rows = await db.$queryRaw<{ listed: boolean; shown: boolean }[]>`
    UPDATE "PublishedTree" SET
      "hiddenAt" = CASE WHEN ${hidden} THEN COALESCE("hiddenAt", CURRENT_TIMESTAMP) END,
      "shown" = "listed" AND NOT ${hidden}
    WHERE "treeId" = ${treeId}
    RETURNING "listed", "shown"`;
  galleryChanged();
  return rows[0] ?? null;
}
