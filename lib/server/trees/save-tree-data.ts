import "server-only";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { TreeNode } from "@/lib/schemas/tree";
import { db } from "@/lib/server/db";
import { ApiError } from "@/lib/server/errors";
import { TREE_TX_OPTIONS, lockTreeOrThrow } from "./lock-tree";
import { treeEtag } from "./serialize";
import { writeTreeData } from "./write-tree-data";

export const TREE_CONFLICT =
  "This tree was changed somewhere else (another tab or device). Reload to get the latest version.";

/** Every person id the structure refers to: node people, partners, parents and adoptive parents. */
export function referencedPeople(root: TreeNode): Set<string> {
  const ids = new Set<string>();
  const stack: TreeNode[] = [root];
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.person) ids.add(node.person._id);
    for (const partner of node.partners) for (const p of partner.people) ids.add(p._id);
    for (const p of node.parents) ids.add(p._id);
    for (const p of node.adoptiveParents) ids.add(p._id);
    for (const child of node.children) stack.push(child);
  }
  return ids;
}

/** Refuses a structure that places people who are not (or no longer) in the tree. */
async function assertPeopleInTree(
  tx: Prisma.TransactionClient,
  treeId: string,
  data: TreeNode,
): Promise<void> {
  const ids = [...referencedPeople(data)];
  if (ids.length === 0) return;
  // one query for any number of ids (an IN list would need one parameter per id)
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT ref."id" FROM unnest(${ids}::text[]) WITH ORDINALITY AS ref("id", "position")
    WHERE NOT EXISTS (
      SELECT 1 FROM "Person" p WHERE p."id" = ref."id" AND p."treeId" = ${treeId}
    )
    ORDER BY ref."position"`;
  if (rows.length === 0) return;
  const missing = rows.map((row) => row.id);
  const shown = missing.slice(0, 3).join(", ");
  const more = missing.length > 3 ? ` and ${missing.length - 3} more` : "";
  throw new ApiError(400, `The tree refers to people who are not in this tree: ${shown}${more}`);
}

/**
 * Replaces the structure of the owner's tree and bumps its version. With `expectedVersion` (from
 * If-Match) a save against any other version is refused with 409; the row lock makes the check
 * and the write one step, so of two saves expecting the same version exactly one wins.
 */
export async function saveTreeData(
  ownerId: string,
  treeId: string,
  data: TreeNode,
  expectedVersion?: number,
): Promise<{ _id: string; version: number }> {
  return db.$transaction(async (tx) => {
    const current = await lockTreeOrThrow(tx, ownerId, treeId);
    if (expectedVersion !== undefined && expectedVersion !== current.version) {
      throw new ApiError(409, TREE_CONFLICT, { ETag: treeEtag(current.version) });
    }
    await assertPeopleInTree(tx, treeId, data);
    return { _id: treeId, version: await writeTreeData(tx, treeId, data) };
  }, TREE_TX_OPTIONS);
}
