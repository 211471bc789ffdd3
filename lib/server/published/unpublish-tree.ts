import "server-only";
import { db } from "@/lib/server/db";
import { galleryChanged } from "@/lib/server/gallery/gallery-cache";
import { notFound } from "@/lib/server/http/errors";
import { NOT_PUBLISHED } from "./get-publish-status";
import { deleteOgImage } from "./og-image-file";
import { publicationChanged } from "./snapshot-url";

/**
 * Deletes the owner's public copy and its Open Graph card; 404 when there is none. It works from
 * the copy's owner, so a copy can still be withdrawn after its tree was deleted.
 */
export async function unpublishTree(ownerId: string, treeId: string): Promise<void> {
  const { count } = await db.publishedTree.deleteMany({ where: { treeId, ownerId } });
  if (count === 0) throw notFound(NOT_PUBLISHED);
  publicationChanged(treeId);
  galleryChanged(); // its search words went with the row (cascade)
  await deleteOgImage(treeId);
}
