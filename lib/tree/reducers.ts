import type { PersonRef, TreeNode } from "@/lib/schemas/tree";
import { emptyNode } from "./empty-node";

/** The address of a node: child indexes from the root (`[]` is the root itself). */
export type NodePath = readonly number[];

/** The parts of a node the node editor can change. */
export type NodePatch = Partial<
  Pick<TreeNode, "person" | "partners" | "parentType" | "parents" | "adoptiveParents" | "hidden">
>;

/** A stable string for a path, usable as a React key ("" is the root). */
export function pathKey(path: NodePath): string {
  return path.join(".");
}

export function pathFromKey(key: string): number[] {
  return key === "" ? [] : key.split(".").map(Number);
}

export function findNode(root: TreeNode, path: NodePath): TreeNode | undefined {
  let node: TreeNode | undefined = root;
  for (const index of path) {
    node = node.children[index];
    if (!node) return undefined;
  }
  return node;
}

/**
 * Replaces the node at `path` with `update(node)`, copying only the nodes on the way down so
 * every untouched subtree keeps its identity. Returns `root` itself when nothing changed.
 */
function updateAt(root: TreeNode, path: NodePath, update: (node: TreeNode) => TreeNode): TreeNode {
  const chain: TreeNode[] = [root];
  for (const index of path) {
    const child = chain[chain.length - 1]!.children[index];
    if (!child) return root;
    chain.push(child);
  }
  let next = update(chain[chain.length - 1]!);
  if (next === chain[chain.length - 1]) return root;
  for (let level = path.length - 1; level >= 0; level -= 1) {
    const parent = chain[level]!;
    const children = parent.children.slice();
    children[path[level]!] = next;
    next = { ...parent, children };
  }
  return next;
}

/** Appends a child (an empty node unless given) to the node at `path`. */
export function addChild(root: TreeNode, path: NodePath, child: TreeNode = emptyNode()): TreeNode {
  return updateAt(root, path, (node) => ({ ...node, children: [...node.children, child] }));
}

/** Removes the node at `path` with all its descendants; deleting the root leaves an empty root. */
export function deleteNode(root: TreeNode, path: NodePath): TreeNode {
  if (path.length === 0) return emptyNode();
  const parentPath = path.slice(0, -1);
  const index = path[path.length - 1]!;
  return updateAt(root, parentPath, (node) =>
    index < node.children.length
      ? { ...node, children: node.children.filter((_, i) => i !== index) }
      : node,
  );
}

/** Merges person, partners or parent details into the node at `path`; children are kept. */
export function mergeNode(root: TreeNode, path: NodePath, patch: NodePatch): TreeNode {
  return updateAt(root, path, (node) => {
    const changed = (Object.keys(patch) as (keyof NodePatch)[]).some(
      (key) => patch[key] !== undefined && patch[key] !== node[key],
    );
    if (!changed) return node;
    const next: TreeNode = { ...node };
    if (patch.person !== undefined) next.person = patch.person;
    if (patch.partners !== undefined) next.partners = patch.partners;
    if (patch.parentType !== undefined) next.parentType = patch.parentType;
    if (patch.parents !== undefined) next.parents = patch.parents;
    if (patch.adoptiveParents !== undefined) next.adoptiveParents = patch.adoptiveParents;
    if (patch.hidden !== undefined) next.hidden = patch.hidden;
    return next;
  });
}

function withoutPerson<T extends { _id: string }>(list: T[], personId: string): T[] {
  return list.some((ref) => ref._id === personId)
    ? list.filter((ref) => ref._id !== personId)
    : list;
}

/**
 * Removes a person from every node: as the node's person, from partner rows (dropping rows left
 * empty) and from parent lists. Subtrees that never mention the person keep their identity.
 */
export function removePersonEverywhere(root: TreeNode, personId: string): TreeNode {
  const visit = (node: TreeNode): TreeNode => {
    let changed = false;
    let children = node.children;
    for (let i = 0; i < node.children.length; i += 1) {
      const child = node.children[i]!;
      const next = visit(child);
      if (next !== child) {
        if (children === node.children) children = node.children.slice();
        children[i] = next;
      }
    }
    if (children !== node.children) changed = true;

    const person = node.person?._id === personId ? null : node.person;
    let partners = node.partners;
    if (partners.some((row) => row.people.some((ref) => ref._id === personId))) {
      partners = partners
        .map((row) => ({ ...row, people: withoutPerson(row.people, personId) }))
        .filter((row) => row.people.length > 0);
    }
    const parents = withoutPerson(node.parents, personId);
    const adoptiveParents = withoutPerson(node.adoptiveParents, personId);
    if (
      person !== node.person ||
      partners !== node.partners ||
      parents !== node.parents ||
      adoptiveParents !== node.adoptiveParents
    ) {
      changed = true;
    }
    return changed ? { ...node, person, partners, parents, adoptiveParents, children } : node;
  };
  return visit(root);
}

/**
 * A copy of the structure with every person reference replaced by `map`'s answer, without
 * recursion (an imported tree may be hundreds of generations deep). `map` sees each node's
 * person, partners, parents and adoptive parents in that order, nodes in the order a stack pops them.
 */
export function mapPersonRefs(root: TreeNode, map: (ref: PersonRef) => PersonRef): TreeNode {
  const copy = (node: TreeNode): TreeNode => ({
    person: node.person ? map(node.person) : null,
    partners: node.partners.map((row) => ({ type: row.type, people: row.people.map(map) })),
    children: [],
    parentType: node.parentType,
    parents: node.parents.map(map),
    adoptiveParents: node.adoptiveParents.map(map),
    hidden: node.hidden,
  });
  const out = copy(root);
  const stack: [TreeNode, TreeNode][] = [[root, out]];
  for (let item = stack.pop(); item; item = stack.pop()) {
    for (const child of item[0].children) {
      const next = copy(child);
      item[1].children.push(next);
      stack.push([child, next]);
    }
  }
  return out;
}

/** Counts nodes without recursion (a tree may be hundreds of generations deep). */
export function countNodes(root: TreeNode): number {
  let count = 0;
  const stack: TreeNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    count += 1;
    for (const child of node.children) stack.push(child);
  }
  return count;
}

/** The ids of everyone placed in a node: its person first, then its partners in order. */
export function peopleInNode(node: TreeNode): string[] {
  const ids: string[] = [];
  if (node.person) ids.push(node.person._id);
  for (const row of node.partners) for (const ref of row.people) ids.push(ref._id);
  return ids;
}
