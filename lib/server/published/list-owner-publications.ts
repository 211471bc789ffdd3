import "server-only";
import type { AccountPublications } from "@/lib/schemas/account-publications";
import { db } from "@/lib/server/db";
import { serializePublishStatus } from "./get-publish-status";

/**
 * The owner's public copies, newest publication first, with whether each is in the Gallery and
 * whether its tree was deleted (the copy outlives a deleted tree, SPEC.md). It reads the copy's
 * own columns (never the snapshot's JSON) and the tree's deletion date, through the owner index.
 */
export async function listOwnerPublications(ownerId: string): Promise<AccountPublications> {
  const rows = await db.publishedTree.findMany({
    where: { ownerId },
    select: {
      treeId: true,
      title: true,
      publishedAt: true,
      viewCount: true,
      listed: true,
      shown: true,
      hiddenAt: true,
      sourceTree: { select: { deletedAt: true } },
    },
    orderBy: [{ publishedAt: "desc" }, { treeId: "asc" }],
  });
  return {
    data: rows.map((row) => ({
      _id: row.treeId,
      title: row.title,
      ...serializePublishStatus(row),
      inGallery: row.shown,
      hiddenFromGallery: row.listed && row.hiddenAt !== null,
      treeDeleted: row.sourceTree.deletedAt !== null,
    })),
  };
}
