// Tree structures the reliability tests save. Every save of a tree sends a different "variant":
// its number is written into the `hidden` flags of the first VARIANT_BITS nodes (breadth first),
// so the stored structure says which request it came from, and the rest is checked to be exactly
// that request's body (a torn or mixed write would not match).
import type { TreeNode } from "@/lib/schemas/tree";

export const VARIANT_BITS = 40;
const PARTNER_ROW_TYPES = ["MARRIED", "EX_PARTNER", "PARTNER", "ABDUCTION"] as const;
const PARENT_TYPES = ["NONE", "NONE", "NONE", "ABDUCTION", "CLONE"] as const;

/**
 * A legacy of `nodes` nodes, three children each, breadth first, placing people from `people`:
 * a main person, three partner rows of two, two parents and an adoptive parent (about 670 bytes
 * of JSON a node with uuid ids, like an editor's autosave).
 */
export function buildTree(people: string[], nodes: number, variant: number): TreeNode {
  if (nodes < VARIANT_BITS) throw new Error(`a tree needs at least ${VARIANT_BITS} nodes`);
  if (!Number.isSafeInteger(variant) || variant < 0 || variant >= 2 ** VARIANT_BITS) {
    throw new Error(`variant ${variant} does not fit in ${VARIANT_BITS} bits`);
  }
  const ref = (i: number) => ({ _id: people[i % people.length]! });
  const all: TreeNode[] = [];
  for (let i = 0; i < nodes; i++) {
    all.push({
      person: ref(i),
      partners: [0, 1, 2].map((row) => ({
        type: PARTNER_ROW_TYPES[(i + row) % PARTNER_ROW_TYPES.length]!,
        people: [ref(i + row + 1), ref(i + row + 2)],
      })),
      children: [],
      parentType: PARENT_TYPES[i % PARENT_TYPES.length]!,
      parents: [ref(i + 3), ref(i + 4)],
      adoptiveParents: i % 2 === 0 ? [ref(i + 5)] : [],
      hidden: i < VARIANT_BITS ? Math.floor(variant / 2 ** i) % 2 === 1 : false,
    });
    if (i > 0) all[Math.floor((i - 1) / 3)]!.children.push(all[i]!);
  }
  return all[0]!;
}

/** The variant a stored structure carries, or undefined when it is no tree built here. */
export function variantOf(data: unknown): number | undefined {
  const queue: unknown[] = [data];
  let variant = 0;
  for (let i = 0; i < VARIANT_BITS; i++) {
    const node = queue[i] as { hidden?: unknown; children?: unknown } | undefined;
    if (!node || typeof node.hidden !== "boolean" || !Array.isArray(node.children)) {
      return undefined;
    }
    if (node.hidden) variant += 2 ** i;
    queue.push(...(node.children as unknown[]));
  }
  return variant;
}

/** The body of a structure save. */
export const saveBody = (data: TreeNode) => JSON.stringify({ data });

/** The JSON Pointer of node `i` (breadth first, three children each) of buildTree's structure. */
function nodePointer(i: number): string {
  let path = "";
  for (let at = i; at > 0; at = Math.floor((at - 1) / 3)) path = `/children/${(at - 1) % 3}${path}`;
  return `/data${path}`;
}

/**
 * The JSON Patch that turns buildTree's variant `from` into its variant `to`, as the editor's
 * autosave sends an edit: a replace of each `hidden` flag that differs.
 */
export function variantPatch(from: number, to: number): { op: "replace"; path: string; value: boolean }[] {
  const ops: { op: "replace"; path: string; value: boolean }[] = [];
  for (let i = 0; i < VARIANT_BITS; i++) {
    const bit = (variant: number) => Math.floor(variant / 2 ** i) % 2 === 1;
    if (bit(from) !== bit(to)) ops.push({ op: "replace", path: `${nodePointer(i)}/hidden`, value: bit(to) });
  }
  return ops;
}
