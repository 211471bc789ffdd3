import "server-only";
import type { z } from "zod";
import type { updateTreeDetailsBody } from "@/lib/schemas/tree";
import { db } from "@/lib/server/db";
import { notFound } from "@/lib/server/errors";
import { sanitizeRichText } from "@/lib/server/sanitize";
import { claimUploads } from "@/lib/server/uploads/claim-uploads";
import { TREE_NOT_FOUND } from "./get-tree";

export type TreeDetails = Partial<z.infer<typeof updateTreeDetailsBody>>;

export interface TreeDetailsResult {
  _id: string;
  title: string;
  description: string;
  cover: string | null;
  version: number;
}

/** Updates the title, description and cover that were sent; the structure is never touched. */
export async function updateTreeDetails(
  ownerId: string,
  treeId: string,
  details: TreeDetails,
): Promise<TreeDetailsResult> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.tree.updateMany({
      where: { id: treeId, ownerId, deletedAt: null },
      data: {
        title: details.title,
        description:
          details.description === undefined ? undefined : sanitizeRichText(details.description),
        cover: details.cover,
      },
    });
    if (count === 0) throw notFound(TREE_NOT_FOUND);
    await claimUploads(tx, ownerId, [details.cover]);
    const row = await tx.tree.findUniqueOrThrow({
      where: { id: treeId },
      select: { id: true, title: true, description: true, cover: true, version: true },
    });
    const { id, ...rest } = row;
    return { _id: id, ...rest };
  });
}
