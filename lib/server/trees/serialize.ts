import "server-only";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { Tree, TreeNode, TreeSummary } from "@/lib/schemas/tree";

/** The columns a full tree answer needs. */
export const treeSelect = {
  id: true,
  title: true,
  description: true,
  cover: true,
  data: true,
  version: true,
  heirs: true,
} as const satisfies Prisma.TreeSelect;

type TreeRow = Prisma.TreeGetPayload<{ select: typeof treeSelect }>;

/** A tree row in the API's shape (`id` becomes `_id`). */
export function serializeTree(row: TreeRow): Tree {
  return {
    _id: row.id,
    title: row.title,
    description: row.description,
    cover: row.cover,
    // validated by treeData before it was stored
    data: row.data as unknown as TreeNode,
    version: row.version,
    // a JSON array of ids, kept outside `data` (set-tree-heirs.ts)
    heirs: Array.isArray(row.heirs)
      ? row.heirs.filter((id): id is string => typeof id === "string")
      : [],
  };
}

export function serializeTreeSummary(row: { id: string; title: string }): TreeSummary {
  return { _id: row.id, title: row.title };
}

export { treeEtag } from "./etag";

/** Hands validated JSON (a tree node, people, links) to a Prisma Json column. */
export const asJson = (value: unknown) => value as Prisma.InputJsonValue;
