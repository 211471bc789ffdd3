// One seeded legacy: its people and a structure that places each of them exactly once (as a node's
// Sim or in a partner row), with heirs, spouses, exes, alien abductions, clones and adoptions.
// The structure is the shared core's (scripts/lib/legacy/generate.ts, also behind the benches'
// bench/editor/generate.ts); unlike the benches' legacies (always 12+ generations for the editor
// benchmark), the depth grows with the size, so a 6-Sim tree is a couple with children, not a
// 12-deep line.
import type { PersonRef, TreeNode } from "@/lib/schemas/tree";
import {
  ASPIRATIONS,
  FIRST_NAMES,
  LAST_NAMES,
  TRAITS,
  generateStructure,
} from "../legacy/generate";
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
  const { data, nodes } = generateStructure({
    rand,
    sims,
    generations,
    maxChildren: options.maxChildren ?? 8,
    maxNodes: options.maxNodes,
    lastNames: LAST_NAMES,
    partnerCounts: [0.35, 0.85, 0.97],
    secondPartner: 0.05,
    adoption: 0.06,
    clone: 0.09,
    reservePerGeneration: 2,
    lastHeirPartner: false,
    ghost: 0.03,
    vampire: 0.05,
    hidden: 0.01,
    person: newPerson,
  });
  return { data, people, nodes, generations };
}

/** A tree of exactly `nodes` nodes (it stops adding relatives there; Sims are not counted). */
export function generateTreeWithNodes(rand: Random, nodes: number, newId: () => string): SeedTree {
  return generateSeedTree(rand, nodes * 4, newId, { maxNodes: nodes });
}
