// A Sim's generation, one definition for every screen and file (issue 33, ADR 040): the canvas
// ruler, the Sim panel, Find a Sim, the public page, the heirs and the exports all read it.
//
// THE RULE
// - The legacy's founder is Generation 1: the tree's root Sim, or the founder passed in.
// - A child is a later generation than each of their parents: generation(child) >
//   generation(parent) for every parent link (birth, adoptive, clone, abduction) the tree holds.
// - Partners share a generation: a Sim who married in (any partner row: married, partner, ex,
//   abduction) has the generation of the Sim they married, and so do that Sim's other partners.
// - The founder's descendants count down the longest line from the founder: a child is one
//   generation after their latest parent of the founder's blood (with partners counted together).
//   A child of cousins of different generations is after both.
// - Everyone else is counted from the Sims already counted: an in-law's parents one generation
//   before their earliest child, then their other relatives outward (first reached, breadth first),
//   pushed later where a parent link needs it.
// - A Sim placed several times has one generation: the rule reads people and their links (all of
//   their placements together, lib/tree/placements.ts), never the row a placement is drawn in.
// - A family with no link to the founder starts at its first Sim in the tree's breadth-first order,
//   at that Sim's drawn row.
// - Where partners cannot share (someone partnered with their own descendant, or a ring of
//   marriages that would put a child before their parent), those partners are counted apart, so the
//   parent links still hold. Only a Sim who is their own ancestor (bad data) breaks a link: the
//   ring is cut at its Sim earliest in the tree, and the count never loops.
//
// Ancestors of the founder are generation 0, -1, …
//
// Linear in Sims and links: union-find, an iterative Tarjan, Kahn's order and breadth-first walks;
// no recursion, so 10,000 Sims 70 generations deep cost a few milliseconds.
import type { Kinship } from "./placements";

/** What the generations read of a Kinship: who is whose parent and partner, and where Sims stand. */
export type GenerationLinks = Pick<Kinship, "parents" | "partners" | "placements">;

export interface Generations {
  /** Every Sim placed in the tree → their generation (the founder's is 1). */
  generation: Map<string, number>;
  /** The founder counted from, or null for an empty tree. */
  founder: string | null;
  /** How many generations there are, from the earliest to the latest (0 for an empty tree). */
  count: number;
  /** The earliest and the latest generation (both 1 for an empty tree). */
  first: number;
  last: number;
}

/** Union-find with path halving, over 0..n-1. */
function unionFind(n: number) {
  const up = Int32Array.from({ length: n }, (_, i) => i);
  const find = (x: number): number => {
    while (up[x] !== x) {
      up[x] = up[up[x]!]!;
      x = up[x]!;
    }
    return x;
  };
  const union = (a: number, b: number) => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) up[Math.max(ra, rb)] = Math.min(ra, rb);
  };
  return { find, union };
}

/** A directed graph in compressed rows, built from an edge list. */
interface Csr {
  start: Int32Array;
  to: Int32Array;
}

function csr(n: number, from: ArrayLike<number>, to: ArrayLike<number>, m: number): Csr {
  const start = new Int32Array(n + 1);
  for (let e = 0; e < m; e += 1) start[from[e]! + 1]! += 1;
  for (let i = 0; i < n; i += 1) start[i + 1]! += start[i]!;
  const fill = start.slice(0, n);
  const out = new Int32Array(m);
  for (let e = 0; e < m; e += 1) out[fill[from[e]!]!++] = to[e]!;
  return { start, to: out };
}

/** Strongly connected components (iterative Tarjan): each node's component id. */
function components(n: number, g: Csr): Int32Array {
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const comp = new Int32Array(n).fill(-1);
  const onStack = new Uint8Array(n);
  const stack: number[] = [];
  const callNode: number[] = [];
  const callEdge: number[] = [];
  let counter = 0;
  let comps = 0;
  for (let root = 0; root < n; root += 1) {
    if (index[root] !== -1) continue;
    callNode.push(root);
    callEdge.push(g.start[root]!);
    index[root] = low[root] = counter++;
    stack.push(root);
    onStack[root] = 1;
    while (callNode.length > 0) {
      const v = callNode[callNode.length - 1]!;
      const e = callEdge[callEdge.length - 1]!;
      if (e < g.start[v + 1]!) {
        callEdge[callEdge.length - 1] = e + 1;
        const w = g.to[e]!;
        if (index[w] === -1) {
          index[w] = low[w] = counter++;
          stack.push(w);
          onStack[w] = 1;
          callNode.push(w);
          callEdge.push(g.start[w]!);
        } else if (onStack[w]) {
          low[v] = Math.min(low[v]!, index[w]!);
        }
        continue;
      }
      callNode.pop();
      callEdge.pop();
      if (callNode.length > 0) {
        const parent = callNode[callNode.length - 1]!;
        low[parent] = Math.min(low[parent]!, low[v]!);
      }
      if (low[v] === index[v]) {
        let w: number;
        do {
          w = stack.pop()!;
          onStack[w] = 0;
          comp[w] = comps;
        } while (w !== v);
        comps += 1;
      }
    }
  }
  return comp;
}

/**
 * Kahn's order of a graph's nodes; where a ring leaves no node free, the lowest-numbered node left
 * goes next (its links from inside the ring are the ones broken).
 */
function topologicalOrder(n: number, g: Csr): Int32Array {
  const indegree = new Int32Array(n);
  for (let e = 0; e < g.to.length; e += 1) indegree[g.to[e]!]! += 1;
  const order = new Int32Array(n);
  const done = new Uint8Array(n);
  let tail = 0;
  for (let v = 0; v < n; v += 1) if (indegree[v] === 0) order[tail++] = v;
  let next = 0;
  for (let head = 0; head < n; head += 1) {
    if (head === tail) {
      while (done[next] || indegree[next] === 0) next += 1;
      order[tail++] = next;
      indegree[next] = 0;
    }
    const v = order[head]!;
    done[v] = 1;
    for (let e = g.start[v]!; e < g.start[v + 1]!; e += 1) {
      const w = g.to[e]!;
      if (indegree[w]! > 0 && (indegree[w]! -= 1) === 0) order[tail++] = w;
    }
  }
  return order;
}

/**
 * Every Sim's generation by the rule above. `founder` is the Sim counted as Generation 1 (default:
 * the tree's root Sim, the first placed); one not in the links falls back to the default.
 */
export function computeGenerations(kin: GenerationLinks, founder?: string | null): Generations {
  // People, numbered in the tree's breadth-first order, then anyone only named in a link.
  const ids: string[] = [];
  const at = new Map<string, number>();
  const see = (id: string) => {
    if (!at.has(id)) {
      at.set(id, ids.length);
      ids.push(id);
    }
  };
  for (const id of kin.placements.keys()) see(id);
  for (const [child, parents] of kin.parents) {
    see(child);
    for (const parent of parents.keys()) see(parent);
  }
  for (const [a, partners] of kin.partners) {
    see(a);
    for (const b of partners.keys()) see(b);
  }
  const n = ids.length;
  if (n === 0) return { generation: new Map(), founder: null, count: 0, first: 1, last: 1 };

  const from: number[] = [];
  const to: number[] = [];
  for (const [child, parents] of kin.parents) {
    const c = at.get(child)!;
    for (const parent of parents.keys()) {
      const p = at.get(parent)!;
      if (p !== c) {
        from.push(p);
        to.push(c);
      }
    }
  }

  // Partners share a group; a group that would stand before or after itself is split up.
  const partners = unionFind(n);
  for (const [a, list] of kin.partners) {
    for (const b of list.keys()) partners.union(at.get(a)!, at.get(b)!);
  }
  let groupOf = Int32Array.from({ length: n }, (_, i) => partners.find(i));
  const linksOf = (groupOfPerson: Int32Array) => {
    const gFrom: number[] = [];
    const gTo: number[] = [];
    for (let e = 0; e < from.length; e += 1) {
      const a = groupOfPerson[from[e]!]!;
      const b = groupOfPerson[to[e]!]!;
      if (a !== b) {
        gFrom.push(a);
        gTo.push(b);
      }
    }
    return { gFrom, gTo };
  };
  {
    const { gFrom, gTo } = linksOf(groupOf);
    const ring = components(n, csr(n, gFrom, gTo, gFrom.length));
    const size = new Int32Array(n);
    for (let g = 0; g < n; g += 1) if (groupOf[g] === g) size[ring[g]!]! += 1;
    // a person whose own group is inside a partner link to their ancestor: in their own group
    let selfLinked = false;
    for (let e = 0; e < from.length && !selfLinked; e += 1) {
      selfLinked = groupOf[from[e]!] === groupOf[to[e]!];
    }
    if (selfLinked || size.some((s) => s > 1)) {
      const split = new Uint8Array(n);
      for (let e = 0; e < from.length; e += 1) {
        if (groupOf[from[e]!] === groupOf[to[e]!]) split[groupOf[from[e]!]!] = 1;
      }
      for (let g = 0; g < n; g += 1) if (groupOf[g] === g && size[ring[g]!]! > 1) split[g] = 1;
      groupOf = groupOf.map((g, i) => (split[g] ? i : g));
    }
  }
  const { gFrom, gTo } = linksOf(groupOf);
  const down = csr(n, gFrom, gTo, gFrom.length);
  const up = csr(n, gTo, gFrom, gFrom.length);
  const order = topologicalOrder(n, down);
  const position = new Int32Array(n);
  for (let i = 0; i < n; i += 1) position[order[i]!] = i;

  // One starting Sim per family joined by any link: the founder's, else the family's first placed.
  const families = unionFind(n);
  for (let e = 0; e < gFrom.length; e += 1) families.union(gFrom[e]!, gTo[e]!);
  const founderIndex = founder != null && at.has(founder) ? at.get(founder)! : 0;
  const anchorOf = new Map<number, number>();
  anchorOf.set(families.find(groupOf[founderIndex]!), founderIndex);
  for (let i = 0; i < n; i += 1) {
    const family = families.find(groupOf[i]!);
    if (!anchorOf.has(family)) anchorOf.set(family, i);
  }
  const level = new Float64Array(n).fill(NaN);
  const blood = new Uint8Array(n);
  for (const anchor of anchorOf.values()) {
    const g = groupOf[anchor]!;
    blood[g] = 1;
    const placements = kin.placements.get(ids[anchor]!);
    const depth = placements ? Math.min(...placements.map((p) => p.depth)) : 0;
    level[g] = anchor === founderIndex ? 1 : depth + 1;
  }

  // 1. The starting Sims' descendants: after their latest parent of the line.
  for (let i = 0; i < n; i += 1) {
    const g = order[i]!;
    if (blood[g]) continue;
    let latest = -Infinity;
    for (let e = up.start[g]!; e < up.start[g + 1]!; e += 1) {
      const p = up.to[e]!;
      if (blood[p] && position[p]! < i) latest = Math.max(latest, level[p]!);
    }
    if (latest > -Infinity) {
      blood[g] = 1;
      level[g] = latest + 1;
    }
  }
  // 2. Their ancestors (in-laws' parents, the founder's): before their earliest counted child.
  for (let i = n - 1; i >= 0; i -= 1) {
    const g = order[i]!;
    if (blood[g]) continue;
    let earliest = Infinity;
    for (let e = down.start[g]!; e < down.start[g + 1]!; e += 1) {
      const c = down.to[e]!;
      if (!Number.isNaN(level[c]!) && position[c]! > i) earliest = Math.min(earliest, level[c]!);
    }
    if (earliest < Infinity) level[g] = earliest - 1;
  }
  // 3. Everyone else, outward from those counted (first reached), then pushed after their parents.
  const queue: number[] = [];
  for (const g of order) if (!Number.isNaN(level[g]!)) queue.push(g);
  const rest = new Uint8Array(n);
  for (let head = 0; head < queue.length; head += 1) {
    const g = queue[head]!;
    for (let side = 0; side < 2; side += 1) {
      const graph = side === 0 ? down : up;
      for (let e = graph.start[g]!; e < graph.start[g + 1]!; e += 1) {
        const h = graph.to[e]!;
        if (Number.isNaN(level[h]!)) {
          level[h] = level[g]! + (side === 0 ? 1 : -1);
          rest[h] = 1;
          queue.push(h);
        }
      }
    }
  }
  for (let i = 0; i < n; i += 1) {
    const g = order[i]!;
    if (!rest[g]) continue;
    for (let e = up.start[g]!; e < up.start[g + 1]!; e += 1) {
      const p = up.to[e]!;
      if (position[p]! < i) level[g] = Math.max(level[g]!, level[p]! + 1);
    }
  }

  // Sims only named in a link (not drawn anywhere) are left out, as before.
  const generation = new Map<string, number>();
  let first = Infinity;
  let last = -Infinity;
  for (let i = 0; i < n; i += 1) {
    if (!kin.placements.has(ids[i]!)) continue;
    const value = level[groupOf[i]!]!;
    generation.set(ids[i]!, value);
    first = Math.min(first, value);
    last = Math.max(last, value);
  }
  if (generation.size === 0) return { generation, founder: null, count: 0, first: 1, last: 1 };
  return { generation, founder: ids[founderIndex]!, count: last - first + 1, first, last };
}
