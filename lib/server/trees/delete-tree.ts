import "server-only";
import { db } from "@/lib/server/db";
import { notFound } from "@/lib/server/http/errors";
import { TREE_NOT_FOUND } from "./get-tree";

/**
 * Soft-deletes the owner's tree: every API call then treats it as missing, but the row, its people
 * and its published copy stay (the provider can recover it; the public copy stays readable).
 */
export async function deleteTree(ownerId: string, treeId: string): Promise<void> {
  const { count } = await db.tree.updateMany({
    where: { id: treeId, ownerId, deletedAt: null },
    data: { deletedAt: new Date() },
  });
  if (count === 0) throw notFound(TREE_NOT_FOUND);
}
