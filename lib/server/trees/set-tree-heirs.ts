import "server-only";
import { legacyOf } from "@/lib/legacy/settings";
import { objectId } from "@/lib/schemas/common";
import type { TreeNode } from "@/lib/schemas/tree";
import { db } from "@/lib/server/db";
import { ApiError, notFound } from "@/lib/server/http/errors";
import { type RateLimitRule, enforceRateLimit } from "@/lib/server/rate-limit";
import { runInWorker } from "@/lib/server/workers/pool";
import { TREE_NOT_FOUND } from "./get-tree";
import { readTreeText } from "./read-tree-data";
import {
  type HeirsContext,
  OFF_THREAD_CHARS,
  StructureRefusal,
  orderHeirs,
} from "./structure-work";
import { structureAnswer } from "./write-tree-data";

/**
 * Heirs writes per account, each counted before any work (issue 32: on a 24,001-Sim tree one
 * check read and walked the whole structure for 0.6-0.8 s, and nothing limited them). A player
 * ticks an heir a few times a session; an hour's worth of checks of the largest tree stays
 * about a minute and a half of a worker's time.
 */
export const HEIRS_PER_ACCOUNT: RateLimitRule = {
  name: "heirs:write",
  limit: 120,
  windowSeconds: 60 * 60,
  message: "You've changed heirs a lot in the last hour.",
};

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
 * the same generation (422 otherwise) unless both were stored already (orderHeirs: a recount of
 * the generations must not lock the player out); they are stored oldest generation first. The structure is
 * not touched, nor its version: the original client's full saves neither see nor drop heirs.
 * Rate-limited per account (HEIRS_PER_ACCOUNT); a large tree is checked in the worker pool.
 */
export async function setTreeHeirs(
  ownerId: string,
  treeId: string,
  heirs: string[],
): Promise<{ heirs: string[] }> {
  await enforceRateLimit(HEIRS_PER_ACCOUNT, ownerId);
  if (!objectId.safeParse(treeId).success) throw notFound(TREE_NOT_FOUND);
  const row = await db.tree.findFirst({
    where: { id: treeId, ownerId, deletedAt: null },
    select: { heirs: true, legacy: true },
  });
  if (!row) throw notFound(TREE_NOT_FOUND);
  // generations as the editor counts them: from the legacy's founder (issue 33)
  const context: HeirsContext = {
    stored: heirsOf(row.heirs),
    founder: legacyOf(row.legacy).founder,
  };
  // validated by treeData before it was stored
  const text = (await readTreeText(db, treeId))!;
  const ordered =
    text.length > OFF_THREAD_CHARS
      ? structureAnswer(await runInWorker("heirs", { text, heirs, context }))
      : orderHere(text, heirs, context);
  const updated = await db.tree.updateMany({
    where: { id: treeId, ownerId, deletedAt: null },
    data: { heirs: ordered },
  });
  if (updated.count === 0) throw notFound(TREE_NOT_FOUND);
  return { heirs: ordered };
}

/** orderHeirs on the request thread, for a small tree, its refusal thrown as the ApiError. */
function orderHere(text: string, heirs: string[], context: HeirsContext): string[] {
  try {
    return orderHeirs(JSON.parse(text) as TreeNode, heirs, context);
  } catch (error) {
    if (error instanceof StructureRefusal) throw new ApiError(error.status, error.detail);
    throw error;
  }
}
