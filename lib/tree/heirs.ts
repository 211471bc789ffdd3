import type { Kinship } from "./placements";
import { relationCandidates } from "./relationship";

/**
 * The heirs left after marking or unmarking `personId`: at most one per generation, so marking a
 * Sim moves the mark from their generation's heir. Heirs no longer in the tree are dropped.
 */
export function toggleHeir(
  heirs: readonly string[],
  personId: string,
  generationOf: (id: string) => number | undefined,
): string[] {
  const placed = heirs.filter((id) => generationOf(id) !== undefined);
  if (placed.includes(personId)) return placed.filter((id) => id !== personId);
  const generation = generationOf(personId);
  if (generation === undefined) return placed;
  return [...placed.filter((id) => generationOf(id) !== generation), personId];
}

/**
 * The Sims of the line from the founder (the root's Sim) down to the latest heir: heir to heir,
 * generation by generation, each step the closest line of descent between them.
 */
export function heirLine(
  kin: Kinship,
  founder: string | null,
  heirs: ReadonlyMap<string, number>,
): string[] {
  if (heirs.size === 0) return [];
  const chain = [...heirs].sort((a, b) => a[1] - b[1]).map(([id]) => id);
  if (founder && chain[0] !== founder) chain.unshift(founder);
  const line = new Set<string>(chain);
  for (let at = 1; at < chain.length; at += 1) {
    const step = relationCandidates(kin, chain[at - 1]!, chain[at]!).find(
      (c) => c.key.kind === "blood",
    );
    for (const id of step?.path ?? []) line.add(id);
  }
  return [...line];
}
