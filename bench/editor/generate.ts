/**
 * Synthetic Sims legacies for the editor benchmark and for tests: a given number of Sims placed
 * in a tree of 12 or more generations, with partner rows of every type, clones, alien
 * abductions and adoptions. The output is deterministic for a given seed.
 */
import type { Person } from "@/lib/schemas/person";
import type { PartnerEntry, PartnerType, PersonRef, TreeNode } from "@/lib/schemas/tree";
import { emptyNode } from "@/lib/tree/empty-node";

export interface GenerateOptions {
  /** How many Sims (people) the legacy holds; every one is placed exactly once. */
  sims: number;
  /** At least 12; the heir line is this many generations deep. */
  generations?: number;
  seed?: number;
  treeId?: string;
  /** Ids of the generated people (default "sim" + a base-36 counter). */
  personId?: (index: number) => string;
  /** At most this many children per node. */
  maxChildren?: number;
}

export interface SyntheticLegacy {
  treeId: string;
  data: TreeNode;
  people: Person[];
}

const FIRST_NAMES = [
  "Bella",
  "Mortimer",
  "Cassandra",
  "Alexander",
  "Nina",
  "Dina",
  "Don",
  "Bob",
  "Eliza",
  "Geoffrey",
  "Bjorn",
  "Lilith",
  "Vlad",
  "Travis",
  "Candy",
  "Darling",
  "Jonathan",
  "Emma",
  "Ollie",
  "Mara",
  "Yuki",
  "Akira",
  "Zoe",
  "Ravi",
  "Lucia",
  "Tomas",
  "Ingrid",
  "Kofi",
  "Amara",
  "Jun",
];
const LAST_NAMES = [
  "Goth",
  "Landgraab",
  "Pancakes",
  "Caliente",
  "Crumplebottom",
  "Newbie",
  "Lothario",
  "Spencer",
  "Ito",
  "Munch",
  "Bheemaiah",
  "Villareal",
  "Hecking",
  "Greenman",
  "Kimura",
  "Oakenshield",
];
const TRAITS = [
  "Ambitious",
  "Cheerful",
  "Creative",
  "Genius",
  "Romantic",
  "Loner",
  "Evil",
  "Foodie",
];
const ASPIRATIONS = ["Academic", "Athlete", "Chef", "Soulmate", "Zen Guru", "Big Happy Family"];
const PARTNER_WEIGHTS: [PartnerType, number][] = [
  ["MARRIED", 0.45],
  ["PARTNER", 0.25],
  ["EX_PARTNER", 0.2],
  ["ABDUCTION", 0.1],
];

/** mulberry32: a small, fast, seedable PRNG. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function generateLegacy(options: GenerateOptions): SyntheticLegacy {
  const generations = Math.max(12, options.generations ?? 12);
  const { sims } = options;
  if (sims < generations)
    throw new Error(`A legacy of ${generations} generations needs ${generations} Sims`);
  const treeId = options.treeId ?? "benchtree";
  const makeId = options.personId ?? ((index: number) => `sim${index.toString(36)}`);
  const maxChildren = options.maxChildren ?? 8;
  const rand = random(options.seed ?? 42);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const chance = (p: number) => rand() < p;

  const people: Person[] = [];
  const newPerson = (lastName: string, lifeState = "Sim"): PersonRef => {
    const index = people.length;
    const _id = makeId(index);
    people.push({
      _id,
      tree: treeId,
      avatar: null,
      firstName: pick(FIRST_NAMES),
      lastName,
      bio: `<p>Generated Sim <strong>#${index + 1}</strong>.</p>`,
      traits: [pick(TRAITS), pick(TRAITS)].filter((t, i, all) => all.indexOf(t) === i),
      aspirations: [pick(ASPIRATIONS)],
      lifeStates: [lifeState],
      custom: chance(0.2) ? [{ title: "Career", value: "Astronaut, level 10" }] : [],
      links: chance(0.02)
        ? [
            {
              title: "Another legacy",
              treeId: "otherlegacy",
              personId: `other${index.toString(36)}`,
            },
          ]
        : [],
    });
    return { _id };
  };
  const remaining = () => sims - people.length;

  interface Built {
    node: TreeNode;
    lastName: string;
    /** The people the node's children can descend from, per partner row. */
    rows: PartnerEntry[];
    generation: number;
  }
  const built: Built[] = [];

  const partnerRows = (reserve: number, atLeastOne: boolean): PartnerEntry[] => {
    const rows: PartnerEntry[] = [];
    const roll = rand();
    let count = roll < 0.25 ? 0 : roll < 0.8 ? 1 : roll < 0.95 ? 2 : 3;
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
      const lifeState = type === "ABDUCTION" ? "Alien" : "Sim";
      const rowPeople = [newPerson(pick(LAST_NAMES), lifeState)];
      if (chance(0.1) && remaining() > reserve)
        rowPeople.push(newPerson(pick(LAST_NAMES), lifeState));
      rows.push({ type, people: rowPeople });
    }
    return rows;
  };

  const createNode = (parent: Built | null, reserve: number, withPartner: boolean): Built => {
    const lastName = parent ? parent.lastName : pick(LAST_NAMES);
    const person = newPerson(lastName);
    const node: TreeNode = { ...emptyNode(), person };
    if (parent) {
      const parentPerson = parent.node.person!;
      const row = parent.rows.length > 0 ? pick(parent.rows) : undefined;
      const other = row?.people[0];
      const roll = rand();
      if (roll < 0.08 && other) {
        node.adoptiveParents = [parentPerson, other];
      } else if (roll < 0.13) {
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
    const result: Built = {
      node,
      lastName,
      rows: node.partners,
      generation: parent ? parent.generation + 1 : 1,
    };
    built.push(result);
    return result;
  };

  // The heir line first, so the legacy reaches its generations whatever its size; each heir keeps
  // enough Sims in reserve for the heirs still to come.
  let heir = createNode(null, generations - 1, true);
  const root = heir;
  for (let generation = 2; generation <= generations; generation += 1) {
    heir = createNode(heir, generations - generation, true);
  }

  // Then the rest of the family, each new Sim a child of a random earlier node.
  const open = built.slice();
  while (remaining() > 0 && open.length > 0) {
    const slot = Math.floor(rand() * open.length);
    const parent = open[slot]!;
    createNode(parent, 0, false);
    open.push(built[built.length - 1]!);
    if (parent.node.children.length >= maxChildren) {
      open[slot] = open[open.length - 1]!;
      open.pop();
    }
  }

  return { treeId, data: root.node, people };
}

export interface LegacyStats {
  nodes: number;
  generations: number;
  placements: number;
  partnerRows: Record<PartnerType, number>;
  adoptions: number;
  clones: number;
  abductions: number;
}

export function legacyStats(data: TreeNode): LegacyStats {
  const stats: LegacyStats = {
    nodes: 0,
    generations: 0,
    placements: 0,
    partnerRows: { PARTNER: 0, EX_PARTNER: 0, MARRIED: 0, ABDUCTION: 0 },
    adoptions: 0,
    clones: 0,
    abductions: 0,
  };
  const stack: [TreeNode, number][] = [[data, 1]];
  while (stack.length > 0) {
    const [node, generation] = stack.pop()!;
    stats.nodes += 1;
    stats.generations = Math.max(stats.generations, generation);
    if (node.person) stats.placements += 1;
    for (const row of node.partners) {
      stats.partnerRows[row.type] += 1;
      stats.placements += row.people.length;
    }
    if (node.adoptiveParents.length > 0) stats.adoptions += 1;
    if (node.parentType === "CLONE") stats.clones += 1;
    if (node.parentType === "ABDUCTION") stats.abductions += 1;
    for (const child of node.children) stack.push([child, generation + 1]);
  }
  return stats;
}

export interface WideOptions {
  sims: number;
  /** The deepest generation (the root is generation 1); the budget usually runs out first. */
  generations?: number;
  seed?: number;
  treeId?: string;
  personId?: (index: number) => string;
}

/**
 * A wide legacy: every node has 3 or 4 children, and every other child (the first, the third…)
 * is married. Nodes are filled breadth first until the Sims run out, so a 10,000-Sim legacy is
 * about 6,700 nodes over 8 or 9 generations, thousands of them side by side in the last two:
 * the shape of a legacy played "for the family", not for the heir.
 */
export function generateWideLegacy(options: WideOptions): SyntheticLegacy {
  const { sims } = options;
  const generations = options.generations ?? 10;
  const treeId = options.treeId ?? "widetree";
  const makeId = options.personId ?? ((index: number) => `wide${index.toString(36)}`);
  const rand = random(options.seed ?? 7);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const people: Person[] = [];
  const newPerson = (lastName: string): PersonRef => {
    const index = people.length;
    const _id = makeId(index);
    people.push({
      _id,
      tree: treeId,
      avatar: null,
      firstName: pick(FIRST_NAMES),
      lastName,
      bio: "",
      traits: [pick(TRAITS)],
      aspirations: [pick(ASPIRATIONS)],
      lifeStates: ["Sim"],
      custom: [],
      links: [],
    });
    return { _id };
  };
  const married = (node: TreeNode) => {
    if (people.length < sims)
      node.partners = [{ type: "MARRIED", people: [newPerson(pick(LAST_NAMES))] }];
  };
  const family = pick(LAST_NAMES);
  const root: TreeNode = { ...emptyNode(), person: newPerson(family) };
  married(root);
  let generation: { node: TreeNode; lastName: string }[] = [{ node: root, lastName: family }];
  for (let depth = 2; depth <= generations && people.length < sims; depth += 1) {
    const next: typeof generation = [];
    for (const parent of generation) {
      const count = rand() < 0.5 ? 3 : 4;
      for (let i = 0; i < count && people.length < sims; i += 1) {
        const child: TreeNode = { ...emptyNode(), person: newPerson(parent.lastName) };
        const spouse = parent.node.partners[0]?.people[0];
        child.parents = spouse ? [parent.node.person!, spouse] : [parent.node.person!];
        if (i % 2 === 0) married(child);
        parent.node.children.push(child);
        next.push({ node: child, lastName: parent.lastName });
      }
      if (people.length >= sims) break;
    }
    generation = next;
  }
  return { treeId, data: root, people };
}
