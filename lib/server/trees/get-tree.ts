import "server-only";
import { objectId } from "@/lib/schemas/common";
import type { Tree } from "@/lib/schemas/tree";
import { db } from "@/lib/server/db";
import { notFound } from "@/lib/server/errors";
import { serializeTree, treeSelect } from "./serialize";

export const TREE_NOT_FOUND = "Tree not found";

/** The owner's tree; someone else's, a missing or a deleted tree is 404 "Tree not found". */
export async function getTreeOrThrow(ownerId: string, treeId: string): Promise<Tree> {
  if (!objectId.safeParse(treeId).success) throw notFound(TREE_NOT_FOUND);
  const row = await db.tree.findFirst({
    where: { id: treeId, ownerId, deletedAt: null },
    select: treeSelect,
  });
  if (!row) throw notFound(TREE_NOT_FOUND);
  return serializeTree(row);
}
