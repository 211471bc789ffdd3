// The open generation of a legacy and the heir its laws suggest (issue 33): the editor's Legacy
// panel and GET /api/trees/{id}/legacy/suggestion read the same answer. The suggestion is only
// offered: the owner confirms it (a PUT /heirs) or picks another child; nothing is applied here.
import type { Person } from "@/lib/schemas/person";
import type { Kinship } from "@/lib/tree/placements";
import { genderOf } from "@/lib/tree/relationship";
import {
  candidatesOf,
  suggestHeir,
  type SuccessionCandidate,
  type SuccessionLaws,
  type SuccessionResult,
} from "./succession";

export interface NextHeir {
  /** The Sim whose heir is open: the latest heir, or the founder before any heir is marked. */
  current: string;
  /** The open generation: the current heir's children's (the current heir's + 1). */
  generation: number;
  /** The current heir's children, eldest first (the order of the children in the tree). */
  candidates: SuccessionCandidate[];
  /** What the laws say; null where no laws are chosen yet (the owner picks freely). */
  result: SuccessionResult | null;
}

/**
 * The founder's id: the one stored if the tree places them, else the root's Sim (the Sim drawn in
 * the root node), else null for an empty tree.
 */
export function founderOf(
  kin: Pick<Kinship, "placements">,
  stored: string | null | undefined,
): string | null {
  if (stored && kin.placements.has(stored)) return stored;
  for (const [id, list] of kin.placements) {
    if (list.some((p) => p.nodeKey === "" && p.main)) return id;
  }
  return null;
}

/**
 * The latest heir (the highest generation, from the founder's on; of two stored in one generation,
 * the later in the list), or the founder; their children as candidates, and the laws' answer.
 * Linear in the heirs and the current heir's children: the tree's size costs only `kin`, which
 * the caller has already built with the same founder.
 */
export function nextHeir(
  kin: Pick<Kinship, "children" | "parents" | "placements" | "generation">,
  founder: string | null,
  heirs: readonly string[],
  people: ReadonlyMap<string, Person>,
  laws: SuccessionLaws | null,
  seed?: string,
): NextHeir | null {
  const start = founderOf(kin, founder);
  if (start === null) return null;
  let current = start;
  let generation = kin.generation.get(start) ?? 1;
  for (const id of heirs) {
    const at = kin.generation.get(id);
    if (at !== undefined && at >= generation) {
      current = id;
      generation = at;
    }
  }
  const candidates = candidatesOf(kin, current, people);
  const result = laws
    ? suggestHeir({
        candidates,
        laws,
        previousHeirGender: genderOf(people.get(current)),
        seed: seed === undefined ? undefined : `${seed}:${generation + 1}`,
      })
    : null;
  return { current, generation: generation + 1, candidates, result };
}

/** GET /api/trees/{id}/legacy/suggestion's answer: nextHeir's, each reason with its English text. */
export interface SuggestionAnswer extends Omit<NextHeir, "result"> {
  /** The founder counted from (the stored one if placed, else the root's Sim); null when empty. */
  founder: string | null;
  result:
    | (Omit<SuccessionResult, "reasons"> & {
        reasons: (SuccessionResult["reasons"][number] & { text: string })[];
      })
    | null;
}
