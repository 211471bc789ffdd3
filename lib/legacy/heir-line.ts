// The heir line as the canvas draws it (issue 33): one line from the founder through each heir in
// generation order, through the Sims between two heirs where a generation's heir is not marked
// (the closest line of descent, as "How are they related?" finds it).
import type { Kinship } from "@/lib/tree/placements";
import { relationCandidates } from "@/lib/tree/relationship";

/**
 * The Sims the line passes, in order: the founder, then from each heir to the next along the
 * closest blood line (an heir with no blood line to the one before starts a new stretch: the line
 * jumps). Empty without heirs. Costs one relation search between consecutive heirs who are not
 * parent and child.
 */
export function heirLineChain(
  kin: Kinship,
  founder: string | null,
  heirs: ReadonlyMap<string, number>,
): string[] {
  if (heirs.size === 0) return [];
  const chain = [...heirs].sort((a, b) => a[1] - b[1]).map(([id]) => id);
  if (founder && chain[0] !== founder && kin.placements.has(founder)) chain.unshift(founder);
  const line: string[] = [chain[0]!];
  for (let at = 1; at < chain.length; at += 1) {
    // the usual step, an heir who is the previous heir's child, needs no search
    if (kin.parents.get(chain[at]!)?.has(chain[at - 1]!)) {
      line.push(chain[at]!);
      continue;
    }
    const step = relationCandidates(kin, chain[at - 1]!, chain[at]!).find(
      (c) => c.key.kind === "blood",
    );
    if (step && step.path.length > 1) line.push(...step.path.slice(1));
    else line.push(chain[at]!);
  }
  return line;
}
