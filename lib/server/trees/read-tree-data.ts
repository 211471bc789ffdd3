import "server-only";
import { Prisma } from "@/lib/generated/prisma/client";
import type { TreeNode } from "@/lib/schemas/tree";
import { treeDataText } from "@/lib/server/sql/tree-data";

/**
 * The whole stored structure of a tree as JSON text, its chunks put in place (ADR 037), or null
 * when there is no such tree. `tx` is a transaction or the client.
 */
export async function readTreeText(
  tx: Prisma.TransactionClient,
  treeId: string,
): Promise<string | null> {
  const rows = await tx.$queryRaw<{ data: string }[]>`
    SELECT ${Prisma.raw(treeDataText("t"))} AS "data" FROM "Tree" t WHERE t."id" = ${treeId}`;
  return rows[0]?.data ?? null;
}

/** The whole stored structure of a tree, parsed (validated when it was stored), or null. */
export async function readTreeData(
  tx: Prisma.TransactionClient,
  treeId: string,
): Promise<TreeNode | null> {
  const text = await readTreeText(tx, treeId);
  return text === null ? null : (JSON.parse(text) as TreeNode);
}
