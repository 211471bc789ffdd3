import "server-only";
import type { PartnerEntry, PersonRef, TreeNode } from "@/lib/schemas/tree";

/** What a validated structure (or one subtree of it) costs, as the limits count it. */
export interface StructureSize {
  nodes: number;
  references: number;
  /** Exactly `JSON.stringify(node).length` of the stored form (ids only, ASCII). */
  bytes: number;
  /** Generations below and including the node: 1 for a leaf. */
  height: number;
  /** The most references any one node of it holds. */
  maxNodeReferences: number;
}

const REF_FRAME = JSON.stringify({ _id: "" }).length;
const PARTNER_FRAME = JSON.stringify({ type: "", people: [] }).length;
const NODE_FRAME =
  JSON.stringify({
    person: null,
    partners: [],
    children: [],
    parentType: "",
    parents: [],
    adoptiveParents: [],
    hidden: true,
  }).length -
  "null".length -
  "true".length;

/** Bytes of one stored person reference (`{"_id":"…"}`; ids are ASCII letters, digits, _ and -). */
export const refBytes = (ref: PersonRef) => REF_FRAME + ref._id.length;

/** Bytes of a stored list of references, brackets included. */
export function refListBytes(refs: readonly PersonRef[]): number {
  let bytes = 2 + Math.max(0, refs.length - 1);
  for (const ref of refs) bytes += refBytes(ref);
  return bytes;
}

export const partnerBytes = (partner: PartnerEntry) =>
  PARTNER_FRAME - 2 + partner.type.length + refListBytes(partner.people);

export function partnerListBytes(partners: readonly PartnerEntry[]): number {
  let bytes = 2 + Math.max(0, partners.length - 1);
  for (const partner of partners) bytes += partnerBytes(partner);
  return bytes;
}

/** References one node holds: its person, its partner rows' people, its parents and adoptive parents. */
export function nodeReferences(node: TreeNode): number {
  let count = node.person ? 1 : 0;
  for (const partner of node.partners) count += partner.people.length;
  return count + node.parents.length + node.adoptiveParents.length;
}

/** Bytes of one node without its children's own bytes (their commas are counted). */
function nodeOwnBytes(node: TreeNode): number {
  return (
    NODE_FRAME +
    (node.person ? refBytes(node.person) : 4) +
    partnerListBytes(node.partners) -
    2 +
    Math.max(0, node.children.length - 1) +
    node.parentType.length +
    refListBytes(node.parents) -
    2 +
    refListBytes(node.adoptiveParents) -
    2 +
    (node.hidden ? 4 : 5)
  );
}

/**
 * Measures a validated subtree in one walk without recursion. `visit` sees every node (to collect
 * ids or charge work); the walk costs one step per node plus one per reference.
 */
export function measureStructure(root: TreeNode, visit?: (node: TreeNode) => void): StructureSize {
  const size: StructureSize = {
    nodes: 0,
    references: 0,
    bytes: 0,
    height: 0,
    maxNodeReferences: 0,
  };
  const stack: [TreeNode, number][] = [[root, 1]];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const [node, level] = item;
    visit?.(node);
    const references = nodeReferences(node);
    size.nodes += 1;
    size.references += references;
    size.bytes += nodeOwnBytes(node);
    if (level > size.height) size.height = level;
    if (references > size.maxNodeReferences) size.maxNodeReferences = references;
    for (const child of node.children) stack.push([child, level + 1]);
  }
  return size;
}

/** A deep copy of a validated subtree, without recursion (a copy op must not share objects). */
export function cloneStructure(root: TreeNode): TreeNode {
  const copyOwn = (node: TreeNode): TreeNode => ({
    person: node.person ? { _id: node.person._id } : null,
    partners: node.partners.map((p) => ({
      type: p.type,
      people: p.people.map((r) => ({ _id: r._id })),
    })),
    children: [],
    parentType: node.parentType,
    parents: node.parents.map((r) => ({ _id: r._id })),
    adoptiveParents: node.adoptiveParents.map((r) => ({ _id: r._id })),
    hidden: node.hidden,
  });
  const top = copyOwn(root);
  const stack: [TreeNode, TreeNode][] = [[root, top]];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const [from, to] = item;
    for (const child of from.children) {
      const copy = copyOwn(child);
      to.children.push(copy);
      stack.push([child, copy]);
    }
  }
  return top;
}
