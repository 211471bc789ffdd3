import "server-only";
import { objectId } from "@/lib/schemas/common";
import { db } from "@/lib/server/db";

/**
 * Counts one view of a public tree, atomically in the database (no read-modify-write, so
 * concurrent views are never lost). Nothing about the viewer is stored. Answers whether the tree
 * is published (an unpublished tree counts nothing).
 */
export async function countPublicView(treeId: string): Promise<boolean> {
  if (!objectId.safeParse(treeId).success) return false;
  const { count } = await db.publishedTree.updateMany({
    where: { treeId },
    data: { viewCount: { increment: 1 } },
  });
  return count > 0;
}
