import "server-only";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { TreeNode } from "@/lib/schemas/tree";

/**
 * Stores a validated structure, already serialized, and bumps the version; answers the new
 * version. The JSON goes to PostgreSQL as one text parameter cast to jsonb: for a 10,000-node
 * (6.6 MB) tree this measured 2-5x faster than Prisma's Json input path, and the autosave of
 * every editor goes through here.
 */
export async function writeTreeJson(
  tx: Prisma.TransactionClient,
  treeId: string,
  json: string,
): Promise<number> {
  const rows = await tx.$queryRaw<{ version: number }[]>`
    UPDATE "Tree"
    SET "data" = ${json}::jsonb,
        "version" = "version" + 1,
        "updatedAt" = CURRENT_TIMESTAMP
    WHERE "id" = ${treeId}
    RETURNING "version"`;
  const row = rows[0];
  if (!row) throw new Error(`Tree ${treeId} vanished while it was locked`);
  return row.version;
}

/** Stores a validated structure and bumps the version (see writeTreeJson). */
export function writeTreeData(
  tx: Prisma.TransactionClient,
  treeId: string,
  data: TreeNode,
): Promise<number> {
  return writeTreeJson(tx, treeId, JSON.stringify(data));
}
