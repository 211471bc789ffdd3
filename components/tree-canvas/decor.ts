import type { TransformMatrix } from "@visx/zoom";
import type { Person } from "@/lib/schemas/person";
import { nodeGeometry, type LayoutNode, type TreeLayout } from "@/lib/tree/layout";
import { transform, VIEWPORT, type Size } from "./viewport";

/** What the workspace asks the canvas to mark, beyond the tree itself. */
export interface CanvasDecor {
  /** The node found or jumped to: drawn with a ring. */
  focusKey: string | null;
  /** Sims on a highlighted path (a relation or the heir line). */
  path: ReadonlySet<string>;
  /** Heirs, with their generation. */
  heirs: ReadonlyMap<string, number>;
  /** How many other nodes each Sim drawn in several is also in. */
  others: ReadonlyMap<string, number>;
  /** Nodes outlined while another placement's marker is hovered. */
  outlined: ReadonlySet<string>;
  /**
   * The heir line's Sims in order, from the founder through each heir (lib/legacy/heir-line.ts):
   * drawn as one line, in the heir line's green, not as rings (the search's and relation's amber).
   */
  heirLine?: readonly string[];
}

export const NO_DECOR: CanvasDecor = {
  focusKey: null,
  path: new Set(),
  heirs: new Map(),
  others: new Map(),
  outlined: new Set(),
};

/** The marks of one node, as a short string: a node re-renders only when its marks change. */
export function nodeDecorKey(laid: LayoutNode, decor: CanvasDecor): string {
  const ids: string[] = [];
  if (laid.node.person) ids.push(laid.node.person._id);
  for (const entry of laid.node.partners) for (const ref of entry.people) ids.push(ref._id);
  let key = "";
  if (decor.focusKey === laid.key) key += "F";
  if (decor.outlined.has(laid.key)) key += "O";
  for (const id of ids) {
    if (decor.path.has(id)) key += `p${id}`;
    if (decor.heirs.has(id)) key += `h${id}`;
    const others = decor.others.get(id);
    if (others) key += `o${id}:${others}`;
  }
  return key;
}

/** The zoom a found Sim is shown at: names readable, at least 1, never zooming out. */
export const READABLE_SCALE = 1;

/**
 * The view that centres `node` at a readable zoom. `insetRight` is the width a panel covers on
 * the right; the node is centred in what is left when that leaves room.
 */
export function centreOn(
  node: Pick<LayoutNode, "x" | "y">,
  size: Size,
  current: TransformMatrix,
  insetRight = 0,
): TransformMatrix {
  const scale = Math.min(VIEWPORT.maxScale, Math.max(READABLE_SCALE, current.scaleX));
  const room = size.width - insetRight >= 320 ? size.width - insetRight : size.width;
  return transform(scale, room / 2 - node.x * scale, size.height / 2 - node.y * scale);
}

/** Between two views, `t` from 0 to 1, eased in and out. */
export function between(from: TransformMatrix, to: TransformMatrix, t: number): TransformMatrix {
  const e = t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) ** 2 / 2;
  const mix = (a: number, b: number) => a + (b - a) * e;
  // the scale is eased in log space, so a zoom feels even
  const scale = Math.exp(mix(Math.log(from.scaleX), Math.log(to.scaleX)));
  return transform(scale, mix(from.translateX, to.translateX), mix(from.translateY, to.translateY));
}

/** A row of the canvas, labelled with the generations of the Sims drawn in it. */
export interface GenerationRow {
  /** The row's depth (0 for the root's row). */
  depth: number;
  /** The earliest and the latest generation of the row's own Sims (lib/tree/generations.ts). */
  first: number;
  last: number;
  /** "Gen 3", or "Gen 3–5" where the row's Sims are of several generations. */
  label: string;
  /** The y of the row's nodes' centres. */
  y: number;
}

/**
 * Each row's generations, read from `generation` (the one rule of lib/tree/generations.ts, so the
 * ruler says what the Sim panel and Find a Sim say): the Sims drawn in the row as its nodes' own,
 * or its partners where a row has none. A row of no placed Sim has no label. Linear in the nodes.
 */
export function generationRows(
  layout: TreeLayout,
  generation: ReadonlyMap<string, number>,
): GenerationRow[] {
  const rows: GenerationRow[] = [];
  layout.nodeRows.forEach((row, depth) => {
    const y = layout.nodes[row.start]?.y ?? NaN;
    if (!Number.isFinite(y)) return;
    let first = Infinity;
    let last = -Infinity;
    const see = (id: string) => {
      const at = generation.get(id);
      if (at === undefined) return;
      if (at < first) first = at;
      if (at > last) last = at;
    };
    for (let i = row.start; i < row.end; i += 1) {
      const id = layout.nodes[i]!.node.person?._id;
      if (id) see(id);
    }
    if (first === Infinity) {
      for (let i = row.start; i < row.end; i += 1) {
        for (const entry of layout.nodes[i]!.node.partners)
          for (const ref of entry.people) see(ref._id);
      }
    }
    if (first === Infinity) return;
    const label = first === last ? `Gen ${first}` : `Gen ${first}–${last}`;
    rows.push({ depth, first, last, label, y });
  });
  return rows;
}

/**
 * Where a centring glides from. A target within `reach` screen pixels of the view's centre, at
 * the current zoom, is glided to from the view itself. A farther one is cut to first: the glide
 * starts `reach` pixels from the target, on the side the view was, at the current zoom. Gliding
 * across thousands of Sims at a readable zoom would draw a new screenful of them at every frame
 * (a blur nobody can read, and frames of 100 ms at 10,000 Sims); the last stretch shows where
 * the Sim is, and each of its frames draws only a few new ones.
 */
export function glideStart(
  from: TransformMatrix,
  to: TransformMatrix,
  size: Size,
  reach = Math.max(size.width, size.height),
): TransformMatrix {
  // the tree's points at the screen's centre in each view
  const centre = (m: TransformMatrix) => ({
    x: (size.width / 2 - m.translateX) / m.scaleX,
    y: (size.height / 2 - m.translateY) / m.scaleY,
  });
  const a = centre(from);
  const b = centre(to);
  const distance = Math.hypot(a.x - b.x, a.y - b.y) * from.scaleX;
  if (!(distance > reach)) return from;
  const share = reach / distance;
  const x = b.x + (a.x - b.x) * share;
  const y = b.y + (a.y - b.y) * share;
  return transform(
    from.scaleX,
    size.width / 2 - x * from.scaleX,
    size.height / 2 - y * from.scaleX,
  );
}

/**
 * Where the heir line passes: each Sim's avatar centre in their home node (the first where they are
 * the node's own Sim, else the first where they are a partner), in the chain's order. Sims not
 * drawn are skipped. One pass over the nodes, then the few nodes the line visits are measured.
 */
export function heirLinePoints(
  layout: TreeLayout,
  people: ReadonlyMap<string, Person>,
  chain: readonly string[],
): { x: number; y: number; personId: string }[] {
  if (chain.length < 2) return [];
  const wanted = new Set(chain);
  const main = new Map<string, LayoutNode>();
  const partner = new Map<string, LayoutNode>();
  for (const laid of layout.nodes) {
    const own = laid.node.person?._id;
    if (own && wanted.has(own) && !main.has(own)) main.set(own, laid);
    for (const row of laid.node.partners) {
      for (const ref of row.people) {
        if (wanted.has(ref._id) && !partner.has(ref._id)) partner.set(ref._id, laid);
      }
    }
  }
  const points: { x: number; y: number; personId: string }[] = [];
  for (const id of chain) {
    const laid = main.get(id) ?? partner.get(id);
    if (!laid) continue;
    const slot = nodeGeometry(laid.node, people).slots.find((s) => s.personId === id);
    points.push({ x: laid.x + (slot?.dx ?? 0), y: laid.y, personId: id });
  }
  return points;
}
