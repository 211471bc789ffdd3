/**
 * What a JSON Patch save of a tree's structure may hold, and its content type. Kept apart from
 * lib/schemas/tree.ts (which re-exports them) so the editor's saver can use them without pulling
 * zod (about 100 KB of script) into the editor's first load.
 */
export const TREE_PATCH_LIMITS = { maxOperations: 10_000, maxPointer: 20_000 } as const;
export const JSON_PATCH_TYPE = "application/json-patch+json";
