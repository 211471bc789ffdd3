import type { Person } from "@/lib/schemas/person";
import type { PartnerType, TreeNode } from "@/lib/schemas/tree";
import { emptyNode } from "@/lib/tree/empty-node";

/** Small builders for tree tests. */
export function person(id: string, firstName = id, lastName = ""): Person {
  return {
    _id: id,
    tree: "tree1",
    avatar: null,
    firstName,
    lastName,
    bio: "",
    traits: [],
    aspirations: [],
    lifeStates: [],
    custom: [],
    links: [],
  };
}

export function peopleMap(...ids: string[]): Map<string, Person> {
  return new Map(ids.map((id) => [id, person(id)]));
}

export function node(
  personId: string | null,
  children: TreeNode[] = [],
  extra: Partial<TreeNode> = {},
): TreeNode {
  return {
    ...emptyNode(),
    person: personId ? { _id: personId } : null,
    children,
    ...extra,
  };
}

export function partners(...rows: [PartnerType, ...string[]][]): TreeNode["partners"] {
  return rows.map(([type, ...ids]) => ({ type, people: ids.map((_id) => ({ _id })) }));
}

/** Freezes a tree deeply, so a test fails if an operation mutates its input. */
export function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** A full binary tree of empty nodes, `generations` deep (2^generations − 1 nodes). */
export function fullBinaryTree(generations: number): TreeNode {
  const root = emptyNode();
  let level = [root];
  for (let g = 1; g < generations; g++) {
    const next: TreeNode[] = [];
    for (const node of level) {
      node.children = [emptyNode(), emptyNode()];
      next.push(...node.children);
    }
    level = next;
  }
  return root;
}
