// One seeded legacy: its people and a structure that places each of them exactly once (as a node's
// Sim or in a partner row), with heirs, spouses, exes, alien abductions, clones and adoptions.
// Unlike bench/editor/generate.ts (which always builds 12+ generations for the editor benchmark),
// the depth grows with the size, so a 6-Sim tree is a couple with children, not a 12-deep line.
import type { PartnerEntry, PartnerType, PersonRef, TreeNode } from "@/lib/schemas/tree";
import { type Random, between, pick } from "./random";

export interface SeedPerson {
  id: string;
  firstName: string;
  lastName: string;
  /** Sanitized HTML, as the API stores it. */
  bio: string;
  traits: string[];
  aspirations: string[];
  lifeStates: string[];
  /** JSON text of [{title, value}]. */
  custom: string;
}

export interface SeedTree {
  data: TreeNode;
  people: SeedPerson[];
  nodes: number;
  generations: number;
}

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
const TRAITS = [
  "Ambitious", "Cheerful", "Creative", "Genius", "Romantic", "Loner", "Evil", "Foodie", "Goofball",
  "Neat", "Slob", "Bookworm", "Music Lover", "Snob", "Good", "Hot-Headed", "Lazy", "Family-Oriented",
]; // prettier-ignore
const ASPIRATIONS = [
  "Academic", "Athlete", "Chef", "Soulmate", "Zen Guru", "Big Happy Family", "Renaissance Sim",
  "Serial Romantic", "Public Enemy", "Nerd Brain", "Fabulously Wealthy", "Painter Extraordinaire",
]; // prettier-ignore
const CAREERS = ["Astronaut", "Chef", "Criminal", "Doctor", "Painter", "Secret Agent", "Writer"];
const SENTENCES = [
  "Born during a thunderstorm.",
  "Married for love, or so the story goes.",
  "Never met a grilled cheese they did not like.",
  "Moved to Willow Creek after the fire.",
  "Was abducted twice and came back with stories.",
  "Reached the top of the career in record time.",
  "Raised a garden that fed the whole street.",
  "Left the family home at eighteen.",
];
const PARTNER_WEIGHTS: [PartnerType, number][] = [
  ["MARRIED", 0.45],
  ["PARTNER", 0.25],
  ["EX_PARTNER", 0.2],
  ["ABDUCTION", 0.1],
];

/** Heirs in the line: about 2 at 6 Sims, 5 at 20, 8 at 100, 12 at 1,000, 15 at 10,000. */
export function generationsFor(sims: number): number {
  const wanted = Math.round(1 + 1.55 * Math.log(sims));
  return Math.max(1, Math.min(16, wanted, Math.floor(sims / 2)));
}

export function generateSeedTree(
  rand: Random,
  sims: number,
  newId: () => string,
  options: { maxChildren?: number; maxNodes?: number } = {},
): SeedTree {
  if (sims < 1) throw new Error("A tree needs at least one Sim");
  const maxChildren = options.maxChildren ?? 8;
  const generations = generationsFor(sims);
  const people: SeedPerson[] = [];
  const chance = (p: number) => rand() < p;

  const newPerson = (lastName: string, lifeState: string): PersonRef => {
    const id = newId();
    const sentences = chance(0.4) ? 0 : between(rand, 1, 3);
    const bio =
      sentences === 0
        ? ""
        : `<p>${Array.from({ length: sentences }, () => pick(rand, SENTENCES)).join(" ")}</p>`;
    const traitCount = between(rand, 0, 3);
    const traits: string[] = [];
    for (let i = 0; i < traitCount; i += 1) {
      const trait = pick(rand, TRAITS);
      if (!traits.includes(trait)) traits.push(trait);
    }
    people.push({
      id,
      firstName: chance(0.02) ? "" : pick(rand, FIRST_NAMES),
      lastName,
      bio,
      traits,
      aspirations: chance(0.7) ? [pick(rand, ASPIRATIONS)] : [],
      lifeStates: [lifeState],
      custom: chance(0.2)
        ? JSON.stringify([
            { title: "Career", value: `${pick(rand, CAREERS)}, level ${between(rand, 1, 10)}` },
          ])
        : "[]",
    });
    return { _id: id };
  };
  const remaining = () => sims - people.length;

  interface Built {
    node: TreeNode;
    lastName: string;
  }
  const built: Built[] = [];
  let nodes = 0;

  const partnerRows = (reserve: number, atLeastOne: boolean): PartnerEntry[] => {
    const rows: PartnerEntry[] = [];
    const roll = rand();
    let count = roll < 0.35 ? 0 : roll < 0.85 ? 1 : roll < 0.97 ? 2 : 3;
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
      const lifeState = type === "ABDUCTION" ? "Alien" : chance(0.05) ? "Vampire" : "Sim";
      const rowPeople = [newPerson(pick(rand, LAST_NAMES), lifeState)];
      if (chance(0.05) && remaining() > reserve) {
        rowPeople.push(newPerson(pick(rand, LAST_NAMES), lifeState));
      }
      rows.push({ type, people: rowPeople });
    }
    return rows;
  };

  const createNode = (parent: Built | null, reserve: number, withPartner: boolean): Built => {
    const lastName = parent ? parent.lastName : pick(rand, LAST_NAMES);
    const node: TreeNode = {
      person: newPerson(lastName, chance(0.03) ? "Ghost" : "Sim"),
      partners: [],
      children: [],
      parentType: "NONE",
      parents: [],
      adoptiveParents: [],
      hidden: chance(0.01),
    };
    nodes += 1;
    if (parent) {
      const parentPerson = parent.node.person!;
      const row = parent.node.partners.length > 0 ? pick(rand, parent.node.partners) : undefined;
      const other = row?.people[0];
      const roll = rand();
      if (roll < 0.06 && other) {
        node.adoptiveParents = [parentPerson, other];
      } else if (roll < 0.09) {
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

  // The heir line first, each heir keeping two Sims per generation still to come in reserve.
  let heir = createNode(null, 2 * (generations - 1), generations > 1);
  const root = heir;
  for (let generation = 2; generation <= generations; generation += 1) {
    heir = createNode(heir, 2 * (generations - generation), generation < generations);
  }
  // Then siblings, cousins and their families, each a child of a random earlier node.
  const open = built.slice();
  const maxNodes = options.maxNodes ?? Infinity;
  while (remaining() > 0 && open.length > 0 && nodes < maxNodes) {
    const slot = Math.floor(rand() * open.length);
    const parent = open[slot]!;
    open.push(createNode(parent, 0, false));
    if (parent.node.children.length >= maxChildren) {
      open[slot] = open[open.length - 1]!;
      open.pop();
    }
  }
  return { data: root.node, people, nodes, generations };
}

/** A tree of exactly `nodes` nodes (it stops adding relatives there; Sims are not counted). */
export function generateTreeWithNodes(rand: Random, nodes: number, newId: () => string): SeedTree {
  return generateSeedTree(rand, nodes * 4, newId, { maxNodes: nodes });
}
