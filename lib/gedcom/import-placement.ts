// Stage 4 of the GEDCOM import (lib/gedcom/import.ts): the root, and everyone placed in Heirloom's
// strict hierarchy (docs/decisions/007-gedcom-placement.md).
import { ImportError, type ImportedPerson } from "@/lib/import/types";
import { TREE_LIMITS, type TreeNode } from "@/lib/schemas/tree";
import { emptyNode } from "@/lib/tree/empty-node";
import {
  ADOPTIVE_PEDIGREES,
  type ChildLink,
  type Family,
  type FamilyGraph,
  type Person,
  parentTypeOf,
} from "./import-graph";
import { displayName } from "./import-text";

/**
 * Connected families: people joined by any family (as partners or children), by union-find.
 * Returns each person's family number, numbered by size (0 = the largest, ties by file order).
 */
function connectedFamilies(people: Person[], families: Family[]): Int32Array {
  const parent = Int32Array.from(people, (_, i) => i);
  const find = (p: number): number => {
    while (parent[p] !== p) {
      parent[p] = parent[parent[p]!]!;
      p = parent[p]!;
    }
    return p;
  };
  for (const family of families) {
    const members = [...family.partners, ...family.children];
    for (let i = 1; i < members.length; i += 1) {
      const a = find(members[0]!);
      const b = find(members[i]!);
      if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
    }
  }
  const size = new Map<number, number>();
  for (let p = 0; p < people.length; p += 1) size.set(find(p), (size.get(find(p)) ?? 0) + 1);
  const ranked = [...size.keys()].sort((a, b) => size.get(b)! - size.get(a)! || a - b);
  const rank = new Map(ranked.map((r, i) => [r, i]));
  return Int32Array.from(people, (_, p) => rank.get(find(p))!);
}

/** Work allowed for trying founders as the root: founders × people walked. */
const ROOT_SEARCH_BUDGET = 4_000_000;

/**
 * How many people the walk from a founder shows: their descendants and every partner of them.
 * The root is the founder of the largest connected family whose walk shows the most people.
 */
function peopleShownFrom(
  start: number,
  people: Person[],
  families: Family[],
  seen: Int32Array,
  walked: Int32Array,
  mark: number,
): number {
  let shown = 0;
  const see = (p: number) => {
    if (seen[p] === mark) return false;
    seen[p] = mark;
    shown += 1;
    return true;
  };
  const queue = [start];
  see(start);
  for (let head = 0; head < queue.length; head += 1) {
    for (const f of people[queue[head]!]!.spouseFams) {
      const family = families[f]!;
      for (const q of family.partners) see(q);
      for (const c of family.children) {
        see(c);
        // a child already seen as someone's partner still has their own children to show
        if (walked[c] !== mark) {
          walked[c] = mark;
          queue.push(c);
        }
      }
    }
  }
  return shown;
}

/**
 * The order founders start branches in (ADR 007): the largest connected family first, and in
 * it the founder whose walk shows the most people; then the other founders by family size,
 * each family's founders by people shown, deepest line and file order.
 */
function founderOrder(graph: FamilyGraph, depth: Int32Array, familyOf: Int32Array): number[] {
  const { people, families } = graph;
  const founders = people
    .filter((person) => person.childFams.every((f) => families[f]!.partners.length === 0))
    .map((person) => person.index);
  const byFamily = new Map<number, number[]>();
  for (const p of founders) {
    const list = byFamily.get(familyOf[p]!) ?? [];
    list.push(p);
    byFamily.set(familyOf[p]!, list);
  }
  const seen = new Int32Array(people.length).fill(-1);
  const walked = new Int32Array(people.length).fill(-1);
  const shown = new Map<number, number>();
  let budget = ROOT_SEARCH_BUDGET;
  let mark = 0;
  const order: number[] = [];
  for (const family of [...byFamily.keys()].sort((a, b) => a - b)) {
    const list = byFamily.get(family)!.sort((a, b) => depth[b]! - depth[a]! || a - b);
    for (const p of list) {
      // a huge file tries the deepest founders first, as far as the budget goes
      if (budget <= 0) break;
      const count = peopleShownFrom(p, people, families, seen, walked, mark);
      mark += 1;
      budget -= count;
      shown.set(p, count);
    }
    list.sort(
      (a, b) => (shown.get(b) ?? 0) - (shown.get(a) ?? 0) || depth[b]! - depth[a]! || a - b,
    );
    order.push(...list);
  }
  return order;
}

/** Builds the tree's nodes: breadth first from the root, then one hidden branch per founder
 * nobody placed yet (ADR 007). A family's children hang under the first node of a partner. */
class Placement {
  root: TreeNode | null = null;
  private readonly placed: Uint8Array;
  private readonly hasNode: Uint8Array;
  private readonly expanded: Uint8Array;
  private nodeCount = 0;

  constructor(
    private readonly graph: FamilyGraph,
    private readonly imported: ImportedPerson[],
  ) {
    this.placed = new Uint8Array(graph.people.length);
    this.hasNode = new Uint8Array(graph.people.length);
    this.expanded = new Uint8Array(graph.families.length);
  }

  /** True when a person is not shown yet, or shown only as a partner with families to show. */
  needsBranch(p: number): boolean {
    if (!this.placed[p]) return true;
    return !this.hasNode[p] && this.graph.people[p]!.spouseFams.some((f) => !this.expanded[f]);
  }

  /** The root's node, or a hidden child of the root: a family drawn beside the main one. */
  branch(p: number): void {
    const node = this.makeNode(p, null);
    if (this.root === null) {
      this.root = node;
      this.spread(node, p, 1);
    } else {
      node.hidden = true;
      this.root.children.push(node);
      this.spread(node, p, 2);
    }
  }

  private makeNode(p: number, parentInfo: { family: Family; link: ChildLink } | null): TreeNode {
    const { people, families } = this.graph;
    this.nodeCount += 1;
    if (this.nodeCount > TREE_LIMITS.maxNodes) {
      throw new ImportError(
        `This GEDCOM file is too large for one tree: it needs more than ${TREE_LIMITS.maxNodes.toLocaleString("en-US")} places in the tree.`,
      );
    }
    const node = emptyNode();
    node.person = { _id: people[p]!.key };
    this.placed[p] = 1;
    this.hasNode[p] = 1;
    for (const f of people[p]!.spouseFams) {
      const family = families[f]!;
      const others = family.partners.filter((q) => q !== p);
      if (family.type === null || others.length === 0) continue;
      for (const q of others) this.placed[q] = 1;
      node.partners.push({
        type: family.type,
        people: others.map((q) => ({ _id: people[q]!.key })),
      });
    }
    if (node.partners.length > TREE_LIMITS.maxPeoplePerList) {
      throw new ImportError(
        `${displayName(this.imported[p]!, people[p]!.xref)} has more than ${TREE_LIMITS.maxPeoplePerList} partners, more than a tree node can show.`,
      );
    }
    if (parentInfo) {
      const { family, link } = parentInfo;
      const allAdoptive = ADOPTIVE_PEDIGREES.has(link.pedigree);
      for (const q of family.partners) {
        const ref = { _id: people[q]!.key };
        if (allAdoptive || link.adoptedBy.has(q)) node.adoptiveParents.push(ref);
        else node.parents.push(ref);
      }
      node.parentType = link.parentType;
    } else {
      node.parentType = people[p]!.record.children.map(parentTypeOf).find((t) => t) ?? "NONE";
    }
    return node;
  }

  private spread(start: TreeNode, startPerson: number, startDepth: number): void {
    const { people, families } = this.graph;
    const queue: [TreeNode, number, number][] = [[start, startPerson, startDepth]];
    for (let head = 0; head < queue.length; head += 1) {
      const [node, p, level] = queue[head]!;
      for (const f of people[p]!.spouseFams) {
        if (this.expanded[f]) continue;
        this.expanded[f] = 1;
        const family = families[f]!;
        for (const c of family.children) {
          if (level + 1 > TREE_LIMITS.maxDepth) {
            throw new ImportError(
              `This GEDCOM file has more than ${TREE_LIMITS.maxDepth} generations, more than a tree can hold.`,
            );
          }
          const childNode = this.makeNode(c, { family, link: family.links.get(c)! });
          node.children.push(childNode);
          queue.push([childNode, c, level + 1]);
        }
      }
    }
  }
}

/** Places everyone (ADR 007) and counts the file's connected families. */
export function placePeople(
  graph: FamilyGraph,
  imported: ImportedPerson[],
  depth: Int32Array,
): { root: TreeNode; families: number } {
  const familyOf = connectedFamilies(graph.people, graph.families);
  const placement = new Placement(graph, imported);
  for (const p of founderOrder(graph, depth, familyOf)) {
    if (placement.needsBranch(p)) placement.branch(p);
  }
  // everyone has a founder above them once cycles are refused; this only guards that promise
  for (let p = 0; p < graph.people.length; p += 1) {
    if (placement.needsBranch(p)) placement.branch(p);
  }
  return {
    root: placement.root ?? emptyNode(),
    families: familyOf.reduce((most, f) => Math.max(most, f + 1), 0),
  };
}
