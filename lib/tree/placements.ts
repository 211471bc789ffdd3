import type { PartnerType, TreeNode } from "@/lib/schemas/tree";
import { computeGenerations } from "./generations";

/** How a child descends from one parent. */
export type ParentLinkKind = "birth" | "adoptive" | "clone" | "abduction";

/** One place a Sim is drawn: a node's key (its child indices joined with ".", "" for the root). */
export interface Placement {
  nodeKey: string;
  /** The node's depth, 0 for the root. */
  depth: number;
  /** true when the Sim is the node's own person, false when drawn as a partner there. */
  main: boolean;
}

/**
 * Everything the tree says about people, built from all of a Sim's placements: their parents
 * (biological, adoptive and the game's conception types), children, partners, generation and the
 * nodes they are drawn in (breadth first, so the first is the Sim's home).
 */
export interface Kinship {
  /** child -> parent -> how; a parent that is biological in one placement stays biological. */
  parents: Map<string, Map<string, ParentLinkKind>>;
  children: Map<string, Set<string>>;
  /** person -> partner -> the types of their partner rows. */
  partners: Map<string, Map<string, PartnerType[]>>;
  placements: Map<string, Placement[]>;
  /** Each placed Sim's generation, by the one rule of lib/tree/generations.ts (the founder is 1). */
  generation: Map<string, number>;
  /** How many generations the tree spans, from its earliest to its latest. */
  generations: number;
}

const RANK: Record<ParentLinkKind, number> = { birth: 0, clone: 0, abduction: 0, adoptive: 1 };

function addParent(kin: Kinship, child: string, parent: string, kind: ParentLinkKind): void {
  if (child === parent) return;
  let links = kin.parents.get(child);
  if (!links) kin.parents.set(child, (links = new Map<string, ParentLinkKind>()));
  const known = links.get(parent);
  if (known === undefined || RANK[kind] < RANK[known]) links.set(parent, kind);
  let kids = kin.children.get(parent);
  if (!kids) kin.children.set(parent, (kids = new Set()));
  kids.add(child);
}

function addPartner(kin: Kinship, a: string, b: string, type: PartnerType): void {
  if (a === b) return;
  for (const [x, y] of [
    [a, b],
    [b, a],
  ] as const) {
    let map = kin.partners.get(x);
    if (!map) kin.partners.set(x, (map = new Map<string, PartnerType[]>()));
    const types = map.get(y) ?? [];
    if (!types.includes(type)) types.push(type);
    map.set(y, types);
  }
}

function place(kin: Kinship, personId: string, placement: Placement): void {
  const list = kin.placements.get(personId);
  if (list) list.push(placement);
  else kin.placements.set(personId, [placement]);
}

/** Kinships built, per root: by founder ("" for the root's Sim), at most two founders a root. */
const built = new WeakMap<TreeNode, Map<string, Kinship>>();

/**
 * Reads the tree breadth first, without recursion. A node's `parents` are its Sim's biological
 * parents (its `parentType` says how they were conceived), its `adoptiveParents` their adoptive
 * ones; a visible child node with neither is its parent node's Sim's child, as the canvas draws it
 * and the GEDCOM export writes it. Generations are counted by lib/tree/generations.ts from
 * `founder` (default: the root's Sim).
 *
 * Built once per structure and founder: a root read before is answered from a WeakMap (the
 * editor's canvas, Sim panel and Find a Sim share one count, and a rename does not count again);
 * the root's count and one picked founder's are kept. Trees are replaced, never changed in place,
 * once read here; the Kinship answered is shared and must not be changed.
 */
export function buildKinship(root: TreeNode, founder?: string | null): Kinship {
  const founderKey = founder ?? "";
  const known = built.get(root)?.get(founderKey);
  if (known) return known;
  const kin: Kinship = {
    parents: new Map(),
    children: new Map(),
    partners: new Map(),
    placements: new Map(),
    generation: new Map(),
    generations: 0,
  };
  const queue: { node: TreeNode; key: string; depth: number; parentSim: string | null }[] = [
    { node: root, key: "", depth: 0, parentSim: null },
  ];
  for (let head = 0; head < queue.length; head += 1) {
    const { node, key, depth, parentSim } = queue[head]!;
    const self = node.person?._id ?? null;
    if (self) {
      place(kin, self, { nodeKey: key, depth, main: true });
      const kind: ParentLinkKind =
        node.parentType === "CLONE"
          ? "clone"
          : node.parentType === "ABDUCTION"
            ? "abduction"
            : "birth";
      const bio = node.parents.filter((ref) => ref._id !== self).map((ref) => ref._id);
      for (const id of bio) addParent(kin, self, id, kind);
      for (const ref of node.adoptiveParents) {
        if (ref._id !== self && !bio.includes(ref._id)) addParent(kin, self, ref._id, "adoptive");
      }
      if (bio.length === 0 && node.adoptiveParents.length === 0 && parentSim && !node.hidden) {
        addParent(kin, self, parentSim, kind);
      }
    }
    const seen = new Set<string>();
    for (const entry of node.partners) {
      for (const ref of entry.people) {
        if (self) addPartner(kin, self, ref._id, entry.type);
        if (ref._id !== self && !seen.has(ref._id)) {
          seen.add(ref._id);
          place(kin, ref._id, { nodeKey: key, depth, main: false });
        }
      }
    }
    node.children.forEach((child, index) => {
      queue.push({
        node: child,
        key: key === "" ? `${index}` : `${key}.${index}`,
        depth: depth + 1,
        parentSim: self,
      });
    });
  }
  const counted = computeGenerations(kin, founder);
  kin.generation = counted.generation;
  kin.generations = counted.count;
  let byFounder = built.get(root);
  if (!byFounder) built.set(root, (byFounder = new Map<string, Kinship>()));
  // the root's count and the latest picked founder's: a founder changed often keeps no others
  if (founderKey !== "") for (const key of byFounder.keys()) if (key !== "") byFounder.delete(key);
  byFounder.set(founderKey, kin);
  return kin;
}

/** The other placements of a Sim drawn in `nodeKey`, in breadth-first order after it (wrapping). */
export function otherPlacements(kin: Kinship, personId: string, nodeKey: string): Placement[] {
  const list = kin.placements.get(personId) ?? [];
  const keys = [...new Set(list.map((p) => p.nodeKey))];
  const at = keys.indexOf(nodeKey);
  const ordered = at < 0 ? keys : [...keys.slice(at + 1), ...keys.slice(0, at)];
  return ordered.map((key) => list.find((p) => p.nodeKey === key)!);
}
