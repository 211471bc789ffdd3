import "server-only";
import { db } from "@/lib/server/db";
import type { TreeSummary } from "@/lib/schemas/tree";
import { serializeTreeSummary } from "./serialize";

/** The owner's trees (not deleted), oldest first, as `{_id, title}`. */
export async function listTrees(ownerId: string): Promise<TreeSummary[]> {
  const rows = await db.tree.findMany({
    where: { ownerId, deletedAt: null },
    select: { id: true, title: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return rows.map(serializeTreeSummary);
}
