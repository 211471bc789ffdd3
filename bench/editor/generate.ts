/**
 * Synthetic Sims legacies for the editor benchmark and for tests: a given number of Sims placed
 * in a tree of 12 or more generations, with partner rows of every type, clones, alien
 * abductions and adoptions. The output is deterministic for a given seed. The structure, the PRNG
 * and the names are the shared core's (scripts/lib/legacy/generate.ts, also behind the scale
 * seed's trees); this file brings the benches' probabilities and their Person records.
 */
import type { Person } from "@/lib/schemas/person";
import type { PartnerType, PersonRef, TreeNode } from "@/lib/schemas/tree";
import { emptyNode } from "@/lib/tree/empty-node";
import {
  ASPIRATIONS as ALL_ASPIRATIONS,
  FIRST_NAMES as ALL_FIRST_NAMES,
  LAST_NAMES as ALL_LAST_NAMES,
  TRAITS as ALL_TRAITS,
  createRandom,
  generateStructure,
  pick,
} from "../../scripts/lib/legacy/generate";

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

// The lists these legacies have always drawn from (the first of the shared ones).
const FIRST_NAMES = ALL_FIRST_NAMES.slice(0, 30);
const LAST_NAMES = ALL_LAST_NAMES.slice(0, 16);
const TRAITS = ALL_TRAITS.slice(0, 8);
const ASPIRATIONS = ALL_ASPIRATIONS.slice(0, 6);

export function generateLegacy(options: GenerateOptions): SyntheticLegacy {
  const generations = Math.max(12, options.generations ?? 12);
  const { sims } = options;
  if (sims < generations)
    throw new Error(`A legacy of ${generations} generations needs ${generations} Sims`);
  const treeId = options.treeId ?? "benchtree";
  const makeId = options.personId ?? ((index: number) => `sim${index.toString(36)}`);
  const rand = createRandom(options.seed ?? 42);
  const chance = (p: number) => rand() < p;

  const people: Person[] = [];
  const person = (lastName: string, lifeState: string): PersonRef => {
    const index = people.length;
    const _id = makeId(index);
    people.push({
      _id,
      tree: treeId,
      avatar: null,
      firstName: pick(rand, FIRST_NAMES),
      lastName,
      bio: `<p>Generated Sim <strong>#${index + 1}</strong>.</p>`,
      traits: [pick(rand, TRAITS), pick(rand, TRAITS)].filter((t, i, all) => all.indexOf(t) === i),
      aspirations: [pick(rand, ASPIRATIONS)],
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

  const { data } = generateStructure({
    rand,
    sims,
    generations,
    maxChildren: options.maxChildren ?? 8,
    lastNames: LAST_NAMES,
    partnerCounts: [0.25, 0.8, 0.95],
    secondPartner: 0.1,
    adoption: 0.08,
    clone: 0.13,
    reservePerGeneration: 1,
    lastHeirPartner: true,
    person,
  });
  return { treeId, data, people };
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
  const rand = createRandom(options.seed ?? 7);
  const people: Person[] = [];
  const newPerson = (lastName: string): PersonRef => {
    const index = people.length;
    const _id = makeId(index);
    people.push({
      _id,
      tree: treeId,
      avatar: null,
      firstName: pick(rand, FIRST_NAMES),
      lastName,
      bio: "",
      traits: [pick(rand, TRAITS)],
      aspirations: [pick(rand, ASPIRATIONS)],
      lifeStates: ["Sim"],
      custom: [],
      links: [],
    });
    return { _id };
  };
  const married = (node: TreeNode) => {
    if (people.length < sims)
      node.partners = [{ type: "MARRIED", people: [newPerson(pick(rand, LAST_NAMES))] }];
  };
  const family = pick(rand, LAST_NAMES);
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
