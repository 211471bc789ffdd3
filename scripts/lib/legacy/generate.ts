// The one core of the synthetic Sims legacies: the editor benchmark's and tests' legacies
// (bench/editor/generate.ts) and the scale seed's trees (scripts/lib/seed/tree.ts). It owns the
// PRNG, the name lists, the heir line and the random fill, partner rows and the parents of a child;
// each caller brings a profile (its probabilities, its reserve policy) and makes its own records.
// Same seed, same bytes: scripts/lib/legacy/pinned-outputs.test.ts pins both callers' outputs, so
// a draw added, dropped or moved here shows there.
import type { PartnerEntry, PartnerType, PersonRef, TreeNode } from "@/lib/schemas/tree";
import { emptyNode } from "@/lib/tree/empty-node";

export type Random = () => number;

/** mulberry32: a small, fast, seedable PRNG answering floats in [0, 1). */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(rand: Random, list: readonly T[]): T =>
  list[Math.floor(rand() * list.length)]!;

// The benches' legacies draw from the first 30 first names, 16 last names, 8 traits and
// 6 aspirations (their recorded figures were taken on those); the scale seed from all of them.
export const FIRST_NAMES = [
  "Bella", "Mortimer", "Cassandra", "Alexander", "Nina", "Dina", "Don", "Bob", "Eliza", "Geoffrey",
  "Bjorn", "Lilith", "Vlad", "Travis", "Candy", "Darling", "Jonathan", "Emma", "Ollie", "Mara",
  "Yuki", "Akira", "Zoe", "Ravi", "Lucia", "Tomas", "Ingrid", "Kofi", "Amara", "Jun", "Malcolm",
  "Penny", "Summer", "Eric", "Luna", "Hugo", "Freya", "Matteo", "Aiko", "Noor", "Callum", "Ivy",
]; // prettier-ignore
export const LAST_NAMES = [
  "Goth", "Landgraab", "Pancakes", "Caliente", "Crumplebottom", "Newbie", "Lothario", "Spencer",
  "Ito", "Munch", "Bheemaiah", "Villareal", "Hecking", "Greenman", "Kimura", "Oakenshield",
  "Bachelor", "Frio", "Dreamer", "Roomies", "Specter", "Straud", "Fyres", "Ward", "Hart",
]; // prettier-ignore
export const TRAITS = [
  "Ambitious", "Cheerful", "Creative", "Genius", "Romantic", "Loner", "Evil", "Foodie", "Goofball",
  "Neat", "Slob", "Bookworm", "Music Lover", "Snob", "Good", "Hot-Headed", "Lazy", "Family-Oriented",
]; // prettier-ignore
export const ASPIRATIONS = [
  "Academic", "Athlete", "Chef", "Soulmate", "Zen Guru", "Big Happy Family", "Renaissance Sim",
  "Serial Romantic", "Public Enemy", "Nerd Brain", "Fabulously Wealthy", "Painter Extraordinaire",
]; // prettier-ignore

const PARTNER_WEIGHTS: [PartnerType, number][] = [
  ["MARRIED", 0.45],
  ["PARTNER", 0.25],
  ["EX_PARTNER", 0.2],
  ["ABDUCTION", 0.1],
];

/** What differs between the callers' legacies. A probability left out is not drawn at all. */
export interface LegacyProfile {
  rand: Random;
  /** Every Sim is placed exactly once; the legacy stops growing when they are all placed. */
  sims: number;
  /** Heirs in the line, the root being the first. */
  generations: number;
  /** At most this many children per node. */
  maxChildren: number;
  /** At most this many nodes (default: no limit). */
  maxNodes?: number;
  /** The family names drawn for the root and for partners. */
  lastNames: readonly string[];
  /** Rolls below the first give a node no partner row, below the second 1, the third 2, else 3. */
  partnerCounts: readonly [number, number, number];
  /** The chance of a second Sim in a partner row. */
  secondPartner: number;
  /** A child's roll below this is adopted (given a partner)... */
  adoption: number;
  /** ...and below this (if not adopted) a clone. */
  clone: number;
  /** Sims each heir keeps in reserve per generation still to come. */
  reservePerGeneration: number;
  /** Whether the last heir gets a partner row too. */
  lastHeirPartner: boolean;
  /** The chance of a node's Sim being a Ghost. */
  ghost?: number;
  /** The chance of a partner (not abducting) being a Vampire. */
  vampire?: number;
  /** The chance of a node being hidden. */
  hidden?: number;
  /** Makes the record of one new Sim and answers its reference. */
  person: (lastName: string, lifeState: string) => PersonRef;
}

/**
 * A legacy that places `sims` Sims: the heir line first, so it reaches its generations whatever its
 * size, each heir keeping Sims in reserve for the heirs still to come; then siblings, cousins and
 * their families, each a child of a random earlier node.
 */
export function generateStructure(profile: LegacyProfile): { data: TreeNode; nodes: number } {
  const { rand, generations } = profile;
  const chance = (p: number) => rand() < p;
  let placed = 0;
  const newPerson = (lastName: string, lifeState: string): PersonRef => {
    placed += 1;
    return profile.person(lastName, lifeState);
  };
  const remaining = () => profile.sims - placed;

  interface Built {
    node: TreeNode;
    lastName: string;
  }
  const built: Built[] = [];

  const partnerRows = (reserve: number, atLeastOne: boolean): PartnerEntry[] => {
    const rows: PartnerEntry[] = [];
    const [none, one, two] = profile.partnerCounts;
    const roll = rand();
    let count = roll < none ? 0 : roll < one ? 1 : roll < two ? 2 : 3;
    if (atLeastOne) count = Math.max(count, 1);
    for (let i = 0; i < count && remaining() > reserve; i += 1) {
      let r = rand();
      let type: PartnerType = "PARTNER";
      for (const [candidate, weight] of PARTNER_WEIGHTS) {
        if (r < weight) {
          type = candidate;
          break;
        }
        r -= weight;
      }
      const lifeState =
        type === "ABDUCTION"
          ? "Alien"
          : profile.vampire !== undefined && chance(profile.vampire)
            ? "Vampire"
            : "Sim";
      const rowPeople = [newPerson(pick(rand, profile.lastNames), lifeState)];
      if (chance(profile.secondPartner) && remaining() > reserve) {
        rowPeople.push(newPerson(pick(rand, profile.lastNames), lifeState));
      }
      rows.push({ type, people: rowPeople });
    }
    return rows;
  };

  const createNode = (parent: Built | null, reserve: number, withPartner: boolean): Built => {
    const lastName = parent ? parent.lastName : pick(rand, profile.lastNames);
    const ghost = profile.ghost !== undefined && chance(profile.ghost);
    const node: TreeNode = {
      ...emptyNode(),
      person: newPerson(lastName, ghost ? "Ghost" : "Sim"),
      hidden: profile.hidden !== undefined && chance(profile.hidden),
    };
    if (parent) {
      const parentPerson = parent.node.person!;
      const row = parent.node.partners.length > 0 ? pick(rand, parent.node.partners) : undefined;
      const other = row?.people[0];
      const roll = rand();
      if (roll < profile.adoption && other) {
        node.adoptiveParents = [parentPerson, other];
      } else if (roll < profile.clone) {
        node.parentType = "CLONE";
        node.parents = [parentPerson];
      } else if (row?.type === "ABDUCTION" && other) {
        node.parentType = "ABDUCTION";
        node.parents = [parentPerson, other];
      } else {
        node.parents = other ? [parentPerson, other] : [parentPerson];
      }
      parent.node.children.push(node);
    }
    node.partners = partnerRows(reserve, withPartner);
    const result = { node, lastName };
    built.push(result);
    return result;
  };

  const createHeir = (parent: Built | null, generation: number) =>
    createNode(
      parent,
      profile.reservePerGeneration * (generations - generation),
      profile.lastHeirPartner || generation < generations,
    );
  let heir = createHeir(null, 1);
  const root = heir;
  for (let generation = 2; generation <= generations; generation += 1) {
    heir = createHeir(heir, generation);
  }

  const open = built.slice();
  const maxNodes = profile.maxNodes ?? Infinity;
  while (remaining() > 0 && open.length > 0 && built.length < maxNodes) {
    const slot = Math.floor(rand() * open.length);
    const parent = open[slot]!;
    open.push(createNode(parent, 0, false));
    if (parent.node.children.length >= profile.maxChildren) {
      open[slot] = open[open.length - 1]!;
      open.pop();
    }
  }
  return { data: root.node, nodes: built.length };
}
