import "server-only";
import { objectId } from "@/lib/schemas/common";
import { db } from "@/lib/server/db";
import { ApiError, notFound } from "@/lib/server/http/errors";
import { buildKinship } from "@/lib/tree/placements";
import { TREE_NOT_FOUND } from "./get-tree";
import { readTreeData } from "./read-tree-data";

/** The heirs as stored: a JSON array of ids (anything else reads as none). */
export function heirsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((id): id is string => typeof id === "string") : [];
}

/** The owner's tree's heirs; 404 as getTreeJson (someone else's, a missing or a deleted tree). */
export async function getTreeHeirs(ownerId: string, treeId: string): Promise<{ heirs: string[] }> {
  if (!objectId.safeParse(treeId).success) throw notFound(TREE_NOT_FOUND);
  const row = await db.tree.findFirst({
    where: { id: treeId, ownerId, deletedAt: null },
    select: { heirs: true },
  });
  if (!row) throw notFound(TREE_NOT_FOUND);
  return { heirs: heirsOf(row.heirs) };
}

/**
 * Replaces the heirs of the owner's tree. Each must be a Sim placed in the tree, and no two in
 * the same generation (422 otherwise); they are stored oldest generation first. The structure is
 * not touched, nor its version: the original client's full saves neither see nor drop heirs.
 */
export async function setTreeHeirs(
  ownerId: string,
  treeId: string,
  heirs: string[],
): Promise<{ heirs: string[] }> {
  if (!objectId.safeParse(treeId).success) throw notFound(TREE_NOT_FOUND);
  const row = await db.tree.findFirst({
    where: { id: treeId, ownerId, deletedAt: null },
    select: { id: true },
  });
  if (!row) throw notFound(TREE_NOT_FOUND);
  // validated by treeData before it was stored
  const kin = buildKinship((await readTreeData(db, treeId))!);
  const byGeneration = new Map<number, string>();
  for (const id of heirs) {
    const generation = kin.generation.get(id);
    if (generation === undefined) {
      throw new ApiError(422, `The heir ${id} is not placed in this tree`);
    }
    if (byGeneration.has(generation)) {
      throw new ApiError(422, `Generation ${generation} can have only one heir`);
    }
    byGeneration.set(generation, id);
  }
  const ordered = [...byGeneration].sort((a, b) => a[0] - b[0]).map(([, id]) => id);
  const updated = await db.tree.updateMany({
    where: { id: treeId, ownerId, deletedAt: null },
    data: { heirs: ordered },
  });
  if (updated.count === 0) throw notFound(TREE_NOT_FOUND);
  return { heirs: ordered };
}
