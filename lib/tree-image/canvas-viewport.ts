import type { Bounds } from "@/lib/tree/layout";

/**
 * The part of the tree the editor's canvas shows, in layout coordinates, read from the canvas
 * itself: its size and the zoom transform on its one top-level <g>. Null when there is no canvas.
 */
export function readCanvasViewport(scope: ParentNode): Bounds | null {
  const svg = scope.querySelector<SVGSVGElement>('svg[role="application"]');
  const group = svg?.querySelector<SVGGElement>(":scope > g[transform]");
  const matrix = group?.transform.baseVal.consolidate()?.matrix;
  if (!svg || !matrix || matrix.a === 0 || matrix.d === 0) return null;
  const width = svg.width.baseVal.value;
  const height = svg.height.baseVal.value;
  return {
    minX: -matrix.e / matrix.a,
    maxX: (width - matrix.e) / matrix.a,
    minY: -matrix.f / matrix.d,
    maxY: (height - matrix.f) / matrix.d,
  };
}
