import { z } from "zod";
import { JSON_PATCH_TYPE, TREE_LIMITS, TREE_PATCH_LIMITS } from "@/lib/tree/limits";
import { objectId } from "./common";

export const PARTNER_TYPES = ["PARTNER", "EX_PARTNER", "MARRIED", "ABDUCTION"] as const;
export const PARENT_TYPES = ["NONE", "ABDUCTION", "CLONE"] as const;
export const partnerType = z.enum(PARTNER_TYPES);
export const parentType = z.enum(PARENT_TYPES);
export type PartnerType = z.infer<typeof partnerType>;
export type ParentType = z.infer<typeof parentType>;

/** Limits of one tree's structure (lib/tree/limits.ts). The spec asks that at least 10,000 nodes and 5 MB fit. */
export { TREE_LIMITS };

/** The sentences naming each structure limit, shared by the schema and the patch applier. */
export const LIMIT_TEXT = {
  nodes: `A tree can hold at most ${TREE_LIMITS.maxNodes} nodes`,
  depth: `A tree can be at most ${TREE_LIMITS.maxDepth} generations deep`,
  referencesPerNode: `A tree node can hold at most ${TREE_LIMITS.maxReferencesPerNode} person references (its person, its partners' people, its parents and adoptive parents)`,
  references: `A tree can hold at most ${TREE_LIMITS.maxReferences} person references`,
  bytes: `A tree's structure can be at most ${TREE_LIMITS.maxBytes / 1024 / 1024} MB as stored`,
  perList: `A list of partners, of a partner row's people, of parents or of adoptive parents can hold at most ${TREE_LIMITS.maxPeoplePerList} entries`,
} as const;

export const TITLE_MAX = 200;
export const DESCRIPTION_MAX = 100_000;

/** A reference to a person of the same tree; only `_id` is kept, whatever else is sent. */
export const personRef = z.object({ _id: objectId });
export type PersonRef = z.infer<typeof personRef>;

export const partnerEntry = z.object({
  type: partnerType.default("PARTNER"),
  people: z.array(personRef).max(TREE_LIMITS.maxPeoplePerList).default([]),
});
export type PartnerEntry = z.infer<typeof partnerEntry>;

export interface TreeNode {
  person: PersonRef | null;
  partners: PartnerEntry[];
  children: TreeNode[];
  parentType: ParentType;
  parents: PersonRef[];
  adoptiveParents: PersonRef[];
  hidden: boolean;
}

type TreeNodeInput = {
  person?: PersonRef | null;
  partners?: z.input<typeof partnerEntry>[];
  children?: TreeNodeInput[];
  parentType?: ParentType;
  parents?: PersonRef[];
  adoptiveParents?: PersonRef[];
  hidden?: boolean;
};

export const treeNode: z.ZodType<TreeNode, TreeNodeInput> = z.lazy(() =>
  z.object({
    person: personRef.nullable().default(null),
    partners: z.array(partnerEntry).max(TREE_LIMITS.maxPeoplePerList).default([]),
    children: z.array(treeNode).default([]),
    parentType: parentType.default("NONE"),
    parents: z.array(personRef).max(TREE_LIMITS.maxPeoplePerList).default([]),
    adoptiveParents: z.array(personRef).max(TREE_LIMITS.maxPeoplePerList).default([]),
    hidden: z.boolean().default(false),
  }),
);

const lengthOf = (value: unknown) => (Array.isArray(value) ? value.length : 0);

/**
 * The person references one node as sent holds, without validating it: its person, its partner
 * rows' people, its parents and adoptive parents. Linear in the node's own lists.
 */
export function referencesOf(node: unknown): number {
  if (node === null || typeof node !== "object") return 0;
  const { person, partners, parents, adoptiveParents } = node as Record<string, unknown>;
  let count = person !== null && typeof person === "object" ? 1 : 0;
  if (Array.isArray(partners)) {
    for (const row of partners as unknown[]) {
      if (row !== null && typeof row === "object")
        count += lengthOf((row as { people?: unknown }).people);
    }
  }
  return count + lengthOf(parents) + lengthOf(adoptiveParents);
}

/** What a structure as sent measures, counted without recursion, stopping at the first limit passed. */
export interface RawMeasure {
  depth: number;
  nodes: number;
  references: number;
  /** The first limit passed, if any. */
  over?: keyof typeof LIMIT_TEXT;
}

/**
 * Measures depth, nodes and references without recursion, so hostile nesting cannot blow the
 * stack; `firstDepth` is the generation of `value` itself (1 for the root).
 */
export function measureRaw(
  value: unknown,
  firstDepth = 1,
  limits: Record<
    "maxNodes" | "maxDepth" | "maxReferencesPerNode" | "maxReferences",
    number
  > = TREE_LIMITS,
): RawMeasure {
  const result: RawMeasure = { depth: 0, nodes: 0, references: 0 };
  const stack: [unknown, number][] = [[value, firstDepth]];
  while (stack.length > 0) {
    const [node, level] = stack.pop()!;
    result.nodes += 1;
    result.depth = Math.max(result.depth, level);
    const references = referencesOf(node);
    result.references += references;
    if (result.nodes > limits.maxNodes) result.over = "nodes";
    else if (result.depth > limits.maxDepth) result.over = "depth";
    else if (references > limits.maxReferencesPerNode) result.over = "referencesPerNode";
    else if (result.references > limits.maxReferences) result.over = "references";
    if (result.over) return result;
    const children = (node as { children?: unknown } | null)?.children;
    if (Array.isArray(children)) for (const child of children) stack.push([child, level + 1]);
  }
  return result;
}

/** The whole structure: one root node, bounded in depth, size and references. */
export const treeData = z.unknown().transform((value, ctx) => {
  const { over } = measureRaw(value);
  if (over) {
    ctx.addIssue({ code: "custom", message: LIMIT_TEXT[over] });
    return z.NEVER;
  }
  const parsed = treeNode.safeParse(value);
  if (!parsed.success) {
    for (const issue of parsed.error.issues)
      ctx.addIssue({ ...issue, path: ["data", ...issue.path] });
    return z.NEVER;
  }
  return parsed.data;
});

const title = z
  .string({ error: "title must be text" })
  .trim()
  .max(TITLE_MAX, `A title can be at most ${TITLE_MAX} characters`);
const description = z
  .string({ error: "description must be text" })
  .max(DESCRIPTION_MAX, "The description is too long");
const cover = z.string().max(200).nullable();

export const createTreeBody = z.object({
  title: title.default(""),
  description: description.default(""),
  cover: cover.default(null),
});

export const updateTreeDetailsBody = z.object({
  title,
  description: description.optional(),
  cover: cover.optional(),
});

/** PUT /api/trees/{id}/heirs: the heirs' person ids, at most one per generation (issue 26). */
export const updateTreeHeirsBody = z
  .object({
    heirs: z
      .array(objectId, { error: "heirs must be a list of person ids" })
      .max(TREE_LIMITS.maxDepth, `A tree can have at most ${TREE_LIMITS.maxDepth} heirs`)
      .refine((ids) => new Set(ids).size === ids.length, {
        error: "A Sim can be an heir only once",
      }),
  })
  .strict();
export type UpdateTreeHeirsBody = z.infer<typeof updateTreeHeirsBody>;

/** Bounds of one JSON Patch (RFC 6902) of a tree's structure. */
export { JSON_PATCH_TYPE, TREE_PATCH_LIMITS };

/** Keys a patch may never name: writing them would reach an object's prototype. */
const FORBIDDEN_SEGMENTS = new Set(["__proto__", "constructor", "prototype"]);

const jsonPointer = z
  .string({ error: "A path must be a JSON Pointer string" })
  .max(TREE_PATCH_LIMITS.maxPointer, "A path is too long")
  .refine((pointer) => pointer === "/data" || pointer.startsWith("/data/"), {
    error: "Only the structure can be patched: every path starts with /data",
  })
  .refine((pointer) => !/~(?![01])/.test(pointer), {
    error: "A path may use ~ only as ~0 (for ~) or ~1 (for /), as RFC 6901 says",
  })
  .refine(
    (pointer) =>
      pointer
        .split("/")
        .every(
          (segment) => !FORBIDDEN_SEGMENTS.has(segment.replace(/~1/g, "/").replace(/~0/g, "~")),
        ),
    { error: "A path may not name __proto__, constructor or prototype" },
  );

const PATCH_OPS = ["add", "remove", "replace", "move", "copy", "test"] as const;

/** One RFC 6902 operation; `value` and `from` are required where the RFC requires them. */
export const jsonPatchOperation = z
  .object({
    op: z.enum(PATCH_OPS, { error: `op must be one of ${PATCH_OPS.join(", ")}` }),
    path: jsonPointer,
    from: jsonPointer.optional(),
    value: z.unknown().optional(),
  })
  .superRefine((operation, ctx) => {
    const needsValue = ["add", "replace", "test"].includes(operation.op);
    if (needsValue && operation.value === undefined) {
      ctx.addIssue({ code: "custom", message: `A ${operation.op} operation needs a value` });
    }
    if ((operation.op === "move" || operation.op === "copy") && operation.from === undefined) {
      ctx.addIssue({ code: "custom", message: `A ${operation.op} operation needs a from path` });
    }
  });
export type JsonPatchOperation = z.infer<typeof jsonPatchOperation>;

/** The body of a structure save as JSON Patch (Content-Type application/json-patch+json). */
export const treeJsonPatch = z
  .array(jsonPatchOperation, { error: "A JSON Patch must be an array of operations" })
  .max(
    TREE_PATCH_LIMITS.maxOperations,
    `A JSON Patch can hold at most ${TREE_PATCH_LIMITS.maxOperations} operations; send the whole {data} instead`,
  );

// PATCH /api/trees/{id} takes {data} or details; lib/server/trees/parse-tree-patch.ts picks the
// branch by the keys sent (a zod union would read an invalid {data} as an empty details update).

export const treeSummary = z.object({ _id: z.string(), title: z.string() });
export type TreeSummary = z.infer<typeof treeSummary>;

export interface Tree {
  _id: string;
  title: string;
  description: string;
  cover: string | null;
  data: TreeNode;
  version: number;
  /** The heirs' person ids, at most one per generation (issue 26); kept outside `data`. */
  heirs?: string[];
}

export type CreateTreeBody = z.infer<typeof createTreeBody>;
