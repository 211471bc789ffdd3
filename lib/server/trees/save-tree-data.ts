import "server-only";
import type { Prisma } from "@/lib/generated/prisma/client";
import { type JsonPatchOperation, type TreeNode, treeData } from "@/lib/schemas/tree";
import { db } from "@/lib/server/db";
import { ApiError } from "@/lib/server/http/errors";
import { applyTreePatch } from "./apply-tree-patch";
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

export const PATCH_NEEDS_IF_MATCH =
  "A JSON Patch must be sent with If-Match: the ETag of the tree version it was made from";

export interface SavedStructure {
  /** The answer's body, as before: the tree's id and new structure version. */
  saved: { _id: string; version: number };
  etag: string;
}

/**
 * Locks the tree, refuses a stale `expectedVersion` with 409, then stores what `structure` makes
 * (checked against the tree's people) and bumps the version. The row lock makes the check and the
 * write one step, so of two saves expecting the same version exactly one wins.
 */
async function saveStructure(
  ownerId: string,
  treeId: string,
  structure: (tx: Prisma.TransactionClient) => Promise<TreeNode> | TreeNode,
  expectedVersion?: number,
): Promise<SavedStructure> {
  return db.$transaction(async (tx) => {
    const current = await lockTreeOrThrow(tx, ownerId, treeId);
    if (expectedVersion !== undefined && expectedVersion !== current.version) {
      throw new ApiError(409, TREE_CONFLICT, {
        ETag: treeEtag(current.version, current.detailsVersion),
      });
    }
    const data = await structure(tx);
    await assertPeopleInTree(tx, treeId, data);
    const version = await writeTreeData(tx, treeId, data);
    return { saved: { _id: treeId, version }, etag: treeEtag(version, current.detailsVersion) };
  }, TREE_TX_OPTIONS);
}

/**
 * Replaces the structure of the owner's tree and bumps its version. With `expectedVersion` (from
 * If-Match) a save against any other version is refused with 409.
 */
export function saveTreeData(
  ownerId: string,
  treeId: string,
  data: TreeNode,
  expectedVersion?: number,
): Promise<SavedStructure> {
  return saveStructure(ownerId, treeId, () => data, expectedVersion);
}

/**
 * Applies a JSON Patch (RFC 6902) to the stored structure of version `expectedVersion` (If-Match
 * is required: a patch means nothing against another version). The result passes the same schema
 * and the same checks as a whole `{data}`, and is stored the same way, so both give the same tree.
 */
export function patchTreeData(
  ownerId: string,
  treeId: string,
  operations: JsonPatchOperation[],
  expectedVersion: number | undefined,
): Promise<SavedStructure> {
  if (expectedVersion === undefined) throw new ApiError(428, PATCH_NEEDS_IF_MATCH);
  return saveStructure(
    ownerId,
    treeId,
    async (tx) => {
      const rows = await tx.$queryRaw<{ data: string }[]>`
        SELECT "data"::text AS "data" FROM "Tree" WHERE "id" = ${treeId}`;
      const stored: unknown = JSON.parse(rows[0]?.data ?? "null");
      return treeData.parse(applyTreePatch(stored, operations));
    },
    expectedVersion,
  );
}
