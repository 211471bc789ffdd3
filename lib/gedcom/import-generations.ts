// Stage 3 of the GEDCOM import (lib/gedcom/import.ts): generations below each person, and the
// refusal of a file where someone is their own ancestor.
import { ImportError, type ImportedPerson } from "@/lib/import/types";
import type { FamilyGraph } from "./import-graph";
import { displayName } from "./import-text";

/**
 * How many generations descend from each person (1 for someone without children). Refuses a
 * file where someone is their own ancestor: no hierarchy can show that. Kahn's algorithm, so
 * no recursion however deep the lines go.
 */
export function generationsBelow(graph: FamilyGraph, imported: ImportedPerson[]): Int32Array {
  const { people, families } = graph;
  const n = people.length;
  const kids = (p: number): number[] => {
    const out: number[] = [];
    for (const f of people[p]!.spouseFams) for (const c of families[f]!.children) out.push(c);
    return out;
  };
  const parentsOf = (c: number): number[] => {
    const out: number[] = [];
    for (const f of people[c]!.childFams) for (const p of families[f]!.partners) out.push(p);
    return out;
  };
  const indegree = new Int32Array(n);
  for (let p = 0; p < n; p += 1) for (const c of kids(p)) indegree[c]! += 1;
  const order: number[] = [];
  for (let p = 0; p < n; p += 1) if (indegree[p] === 0) order.push(p);
  for (let i = 0; i < order.length; i += 1) {
    for (const c of kids(order[i]!)) {
      indegree[c]! -= 1;
      if (indegree[c] === 0) order.push(c);
    }
  }
  if (order.length < n) {
    // walk up through unresolved parents until someone repeats: they are on the cycle
    let p = indegree.findIndex((d) => d > 0);
    const seen = new Set<number>();
    while (!seen.has(p)) {
      seen.add(p);
      p = parentsOf(p).find((q) => indegree[q]! > 0) ?? p;
    }
    const person = people[p]!;
    throw new ImportError(
      `This GEDCOM file makes ${displayName(imported[p]!, person.xref)} their own ancestor, which a family tree cannot show. Fix the family links in your genealogy program and import again.`,
    );
  }
  const depth = new Int32Array(n);
  for (let i = order.length - 1; i >= 0; i -= 1) {
    const p = order[i]!;
    let below = 0;
    for (const c of kids(p)) if (depth[c]! > below) below = depth[c]!;
    depth[p] = below + 1;
  }
  return depth;
}
