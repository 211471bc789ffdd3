import "server-only";
import type { z } from "zod";
import type { updateTreeDetailsBody } from "@/lib/schemas/tree";
import { db } from "@/lib/server/db";
import { ApiError, notFound } from "@/lib/server/http/errors";
import { sanitizeRichText } from "@/lib/server/sanitize";
import { claimUploads } from "@/lib/server/uploads/claim-uploads";
import { treeEtag } from "./etag";
import { TREE_NOT_FOUND } from "./get-tree";

export type TreeDetails = Partial<z.infer<typeof updateTreeDetailsBody>>;

export const TREE_DETAILS_CONFLICT =
  "This tree's details were changed somewhere else (another tab or device) since you opened them. Reload to see those changes, or save over them.";

export interface TreeDetailsResult {
  _id: string;
  title: string;
  description: string;
  cover: string | null;
  version: number;
}

/**
 * Updates the title, description and cover that were sent; the structure is never touched. With
 * `expectedDetailsVersion` (from If-Match) an update of any other details version is refused with
 * 409; the condition is in the UPDATE itself, so two writers with the same If-Match cannot both
 * win. Answers the details and the tree's new ETag.
 */
export async function updateTreeDetails(
  ownerId: string,
  treeId: string,
  details: TreeDetails,
  expectedDetailsVersion?: number,
): Promise<{ tree: TreeDetailsResult; etag: string }> {
  return db.$transaction(async (tx) => {
    const where = { id: treeId, ownerId, deletedAt: null };
    const { count } = await tx.tree.updateMany({
      where: { ...where, detailsVersion: expectedDetailsVersion },
      data: {
        title: details.title,
        description:
          details.description === undefined ? undefined : sanitizeRichText(details.description),
        cover: details.cover,
        detailsVersion: { increment: 1 },
      },
    });
    if (count === 0) {
      const current = await tx.tree.findFirst({
        where,
        select: { version: true, detailsVersion: true },
      });
      if (!current) throw notFound(TREE_NOT_FOUND);
      throw new ApiError(409, TREE_DETAILS_CONFLICT, {
        ETag: treeEtag(current.version, current.detailsVersion),
      });
    }
    await claimUploads(tx, ownerId, [details.cover]);
    const row = await tx.tree.findUniqueOrThrow({
      where: { id: treeId },
      select: {
        id: true,
        title: true,
        description: true,
        cover: true,
        version: true,
        detailsVersion: true,
      },
    });
    const { id, detailsVersion, ...rest } = row;
    return { tree: { _id: id, ...rest }, etag: treeEtag(row.version, detailsVersion) };
  });
}
