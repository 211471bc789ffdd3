import type { TreeNode } from "@/lib/schemas/tree";

/**
 * A new, empty node (the root of a new tree, or a new child). Kept apart from lib/schemas/tree.ts
 * so the editor's reducers can make one without pulling zod (about 100 KB) into its first load.
 */
export function emptyNode(): TreeNode {
  return {
    person: null,
    partners: [],
    children: [],
    parentType: "NONE",
    parents: [],
    adoptiveParents: [],
    hidden: false,
  };
}
