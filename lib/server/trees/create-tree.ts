import "server-only";
import type { CreateTreeBody, Tree } from "@/lib/schemas/tree";
import { emptyNode } from "@/lib/tree/empty-node";
import { db } from "@/lib/server/db";
import { getEnv } from "@/lib/env";
import { TREES_PER_ACCOUNT, enforceRateLimit } from "@/lib/server/rate-limit";
import { sanitizeRichText } from "@/lib/server/sanitize";
import { claimUploads } from "@/lib/server/uploads/claim-uploads";
import { asJson, serializeTree, treeSelect } from "./serialize";

/**
 * A new tree of the owner, whose structure is one empty root node. Each counts against the
 * account's hourly tree limit first (issue 22.6).
 */
export async function createTree(ownerId: string, body: CreateTreeBody): Promise<Tree> {
  // the limit comes from the environment, so that test servers can raise it
  await enforceRateLimit({ ...TREES_PER_ACCOUNT, limit: getEnv().TREES_PER_ACCOUNT_HOUR }, ownerId);
  return db.$transaction(async (tx) => {
    await claimUploads(tx, ownerId, [body.cover]);
    const row = await tx.tree.create({
      data: {
        ownerId,
        title: body.title,
        description: sanitizeRichText(body.description),
        cover: body.cover,
        data: asJson(emptyNode()),
      },
      select: treeSelect,
    });
    return serializeTree(row);
  });
}
