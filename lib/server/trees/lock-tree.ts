import "server-only";
import type { Prisma } from "@/lib/generated/prisma/client";
import { notFound } from "@/lib/server/http/errors";
import { TREE_NOT_FOUND } from "./get-tree";

/**
 * Options for transactions that take the tree lock: a big save may wait behind another one.
 * Prisma's defaults (2 s to get a connection, 5 s in all) are too short for a storm of autosaves.
 */
export const TREE_TX_OPTIONS = { maxWait: 10_000, timeout: 20_000 } as const;

/**
 * Locks the owner's tree row until the transaction ends and answers its versions. Structure saves
 * and person deletes take this lock first, so they run one after the other: a version check
 * cannot be raced, and a save cannot check a person that a concurrent delete is removing.
 */
export async function lockTreeOrThrow(
  tx: Prisma.TransactionClient,
  ownerId: string,
  treeId: string,
): Promise<{ version: number; detailsVersion: number }> {
  const rows = await tx.$queryRaw<{ version: number; detailsVersion: number }[]>`
    SELECT "version", "detailsVersion" FROM "Tree"
    WHERE "id" = ${treeId} AND "ownerId" = ${ownerId} AND "deletedAt" IS NULL
    FOR UPDATE`;
  const row = rows[0];
  if (!row) throw notFound(TREE_NOT_FOUND);
  return row;
}
