import "server-only";
import { objectId } from "@/lib/schemas/common";
import type { PublishStatus } from "@/lib/schemas/published";
import { db } from "@/lib/server/db";
import { notFound } from "@/lib/server/http/errors";

export const NOT_PUBLISHED = "This tree is not published";

export const serializePublishStatus = (row: {
  publishedAt: Date;
  viewCount: number;
  listed: boolean;
}): PublishStatus => ({
  lastPublishDate: row.publishedAt.toISOString(),
  viewCount: row.viewCount,
  publishToGallery: row.listed,
});

/**
 * The owner's view of a publication: when it was last published and how often it was viewed.
 * 404 "This tree is not published" when it is not (or is not the owner's). It reads the owner
 * column of the copy, so it still answers after the tree itself was deleted.
 */
export async function getPublishStatus(ownerId: string, treeId: string): Promise<PublishStatus> {
  if (!objectId.safeParse(treeId).success) throw notFound(NOT_PUBLISHED);
  const row = await db.publishedTree.findFirst({
    where: { treeId, ownerId },
    select: { publishedAt: true, viewCount: true, listed: true },
  });
  if (!row) throw notFound(NOT_PUBLISHED);
  return serializePublishStatus(row);
}
