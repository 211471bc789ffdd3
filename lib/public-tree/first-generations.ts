// The first generations a public tree's page names in its HTML (components/public-tree/
// first-generations.tsx draws them): cut from the whole tree where the publication is read, which
// for a large tree is a worker thread (lib/public-tree/page-model.ts), so that the page's render
// receives a few families, not the tree.
import type { Person } from "@/lib/schemas/person";
import type { TreeNode } from "@/lib/schemas/tree";

/** How many generations the page's HTML names, and at most how many families in all. */
export const FIRST_GENERATIONS = 3;
export const MAX_FAMILIES = 60;

export type NamedPerson = Pick<Person, "_id" | "firstName" | "lastName">;

/** The families named, as a tree of only them, and the names of the people they hold. */
export interface FirstGenerationsCut {
  data: TreeNode;
  people: NamedPerson[];
}

/** The families named: generation by generation from the root, hidden ones left out, bounded. */
function firstFamilies(root: TreeNode): Set<TreeNode> {
  const shown = new Set<TreeNode>([root]);
  let generation = [root];
  for (let depth = 1; depth < FIRST_GENERATIONS && shown.size < MAX_FAMILIES; depth += 1) {
    const next: TreeNode[] = [];
    for (const node of generation) {
      for (const child of node.children) {
        if (child.hidden || shown.size >= MAX_FAMILIES) continue;
        shown.add(child);
        next.push(child);
      }
    }
    generation = next;
  }
  return shown;
}

export function firstGenerationsCut(
  data: TreeNode,
  people: ReadonlyMap<string, Person>,
): FirstGenerationsCut {
  const shown = firstFamilies(data);
  const named = new Map<string, NamedPerson>();
  const name = (id: string | undefined) => {
    const person = id === undefined ? undefined : people.get(id);
    if (person)
      named.set(person._id, {
        _id: person._id,
        firstName: person.firstName,
        lastName: person.lastName,
      });
  };
  // At most FIRST_GENERATIONS deep, so the recursion is too.
  const cut = (node: TreeNode): TreeNode => {
    name(node.person?._id);
    for (const row of node.partners) for (const ref of row.people) name(ref._id);
    return { ...node, children: node.children.filter((child) => shown.has(child)).map(cut) };
  };
  return { data: cut(data), people: [...named.values()] };
}
