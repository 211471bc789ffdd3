import { type CanvasPerson, fromCanvasPeople } from "@/lib/client/canvas-people";
import type { Person } from "@/lib/schemas/person";
import type { PersonRef, Tree, TreeNode } from "@/lib/schemas/tree";

// The editor's first load is one read (ADR 038): GET /api/trees/{id}?fields=canvas answers the
// tree with its people as the canvas draws them (GET /api/people?tree=&fields=canvas's persons),
// and each person reference in the structure as that person's position in `people`, so that each
// id is sent once. The original client's GET /api/trees/{id} is unchanged.

/** The editor's load (tree-editor.tsx and the page's early load ask for the same URL). */
export const canvasTreeUrl = (encodedTreeId: string) => `/api/trees/${encodedTreeId}?fields=canvas`;

/** A reference in the canvas answer: a position in its `people`, or as stored for anyone else. */
export type CanvasRef = number | PersonRef;

/** GET /api/trees/{id}?fields=canvas's answer. */
export interface CanvasTree extends Omit<Tree, "data"> {
  /** A TreeNode whose references are CanvasRefs. */
  data: TreeNode;
  people: CanvasPerson[];
}

/**
 * The canvas answer as the editor holds a tree and its people: references as `{_id}` again (in
 * the answer's own objects, which the caller has just parsed), the people as fromCanvasPeople
 * makes them (their details loaded when the panel opens).
 */
export function fromCanvasTree(answer: CanvasTree): { tree: Tree; people: Person[] } {
  const { people: rows, ...tree } = answer;
  const people = fromCanvasPeople(rows, answer._id);
  const toRef = (ref: CanvasRef): PersonRef => {
    if (typeof ref !== "number") return ref;
    const person = people[ref];
    if (!person) throw new Error(`The tree refers to person ${ref} of ${people.length}`);
    return { _id: person._id };
  };
  // The answer's references are typed PersonRef but are CanvasRefs, and position 0 is falsy (so
  // not mapPersonRefs, which maps a truthy person only). In place, without recursion (an imported
  // tree may be hundreds of generations deep).
  const refs = (list: PersonRef[]) => list.map(toRef);
  const stack: TreeNode[] = [tree.data];
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.person !== null) node.person = toRef(node.person);
    for (const row of node.partners) row.people = refs(row.people);
    node.parents = refs(node.parents);
    node.adoptiveParents = refs(node.adoptiveParents);
    for (const child of node.children) stack.push(child);
  }
  return { tree, people };
}
