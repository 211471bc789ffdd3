/**
 * Every limit of a tree's structure, in one place (STYLE.md 13). A full `{data}` save, a JSON
 * Patch and an import are held to the same numbers: the schema (lib/schemas/tree.ts) checks a
 * whole structure, the patch applier (lib/server/trees/apply-tree-patch.ts) counts them op by op
 * as it applies. docs/reference.md lists them (its table is checked against this module by
 * lib/tree/limits.test.ts). No zod here: the editor's saver imports this module.
 */
export const TREE_LIMITS = {
  /** Nodes in one tree. The spec asks that at least 10,000 fit. */
  maxNodes: 50_000,
  /** Generations: the root is generation 1. */
  maxDepth: 500,
  /** Entries in any one list: partner rows, people of one partner row, parents, adoptive parents. */
  maxPeoplePerList: 100,
  /** Person references held by one node: its person, every partner row's people, its parents and adoptive parents. */
  maxReferencesPerNode: 500,
  /** Person references in the whole tree. */
  maxReferences: 250_000,
  /** The structure as stored (JSON, ids only in references), in bytes. */
  maxBytes: 16 * 1024 * 1024,
} as const;

/** What one JSON Patch (RFC 6902) save may hold, and the work it may cost. */
export const TREE_PATCH_LIMITS = {
  maxOperations: 10_000,
  /** Characters of one JSON Pointer (`path` or `from`). */
  maxPointer: 20_000,
  /**
   * Nodes and references one patch may walk in all, to copy, move, insert, replace or remove
   * them: a patch that removes or copies a whole large tree again and again stops here, whatever
   * each op's result would be. A patch runs on the request thread, and each unit of work costs
   * about 1-2 µs there with the copies it makes and their garbage: 600,000 (twice the largest
   * tree) held other requests for 0.3-1.2 s per patch, [copy, remove] pairs sent over and over.
   * 100,000 is two copies of a 50,000-node tree's nodes; the editor sends a refused patch again
   * whole, and its edits are a few ops.
   */
  maxWork: 100_000,
} as const;

export const JSON_PATCH_TYPE = "application/json-patch+json";

/** The limits as docs/reference.md lists them: name, value, what it bounds. */
export const LIMITS_TABLE: readonly [string, string, string][] = [
  [
    "Nodes per tree",
    TREE_LIMITS.maxNodes.toLocaleString("en-US"),
    "every structure save, patch and import",
  ],
  [
    "Generations (depth)",
    TREE_LIMITS.maxDepth.toLocaleString("en-US"),
    "every structure save, patch and import",
  ],
  [
    "Entries per list",
    TREE_LIMITS.maxPeoplePerList.toLocaleString("en-US"),
    "partner rows of a node, people of a partner row, parents, adoptive parents",
  ],
  [
    "Person references per node",
    TREE_LIMITS.maxReferencesPerNode.toLocaleString("en-US"),
    "a node's person, partners' people, parents and adoptive parents together",
  ],
  [
    "Person references per tree",
    TREE_LIMITS.maxReferences.toLocaleString("en-US"),
    "every structure save, patch and import",
  ],
  [
    "Stored structure size",
    `${TREE_LIMITS.maxBytes / 1024 / 1024} MB`,
    "the structure as stored (ids only in references)",
  ],
  [
    "Operations per JSON Patch",
    TREE_PATCH_LIMITS.maxOperations.toLocaleString("en-US"),
    "one `application/json-patch+json` save",
  ],
  [
    "JSON Pointer length",
    `${TREE_PATCH_LIMITS.maxPointer.toLocaleString("en-US")} characters`,
    "each `path` and `from`",
  ],
  [
    "Work per JSON Patch",
    `${TREE_PATCH_LIMITS.maxWork.toLocaleString("en-US")} nodes and references`,
    "walked in all by one patch's copies, moves, inserts, replaces and removes",
  ],
];
