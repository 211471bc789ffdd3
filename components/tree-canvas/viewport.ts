import type { TransformMatrix } from "@visx/zoom";
import type { Bounds } from "@/lib/tree/layout";
import { fitTransform, transform, VIEWPORT, type Size } from "@/lib/tree/viewport";

export { fitTransform, transform, VIEWPORT, type Size };

/**
 * Where the canvas starts: the root centred horizontally with 120 above it, or a chosen point
 * (a Sim opened from a link) in the middle of the view.
 */
export function initialTransform(
  size: Size,
  root: { x: number; y: number } | undefined,
  focus?: { x: number; y: number },
): TransformMatrix {
  if (focus) return transform(1, size.width / 2 - focus.x, size.height / 2 - focus.y);
  return transform(1, size.width / 2 - (root?.x ?? 0), VIEWPORT.topPadding - (root?.y ?? 0));
}

/**
 * The opening view: a Sim opened from a link in the middle; else the whole tree when it can be
 * read at the zoom that fits it; else the root at 1×, centred with 120 above it.
 */
export function openingTransform(
  size: Size,
  bounds: Bounds,
  root: { x: number; y: number } | undefined,
  focus?: { x: number; y: number },
): TransformMatrix {
  if (!focus) {
    const fitted = fitTransform(size, bounds);
    if (fitted.scaleX >= VIEWPORT.readableScale) return fitted;
  }
  return initialTransform(size, root, focus);
}

export function panBy(matrix: TransformMatrix, dx: number, dy: number): TransformMatrix {
  return { ...matrix, translateX: matrix.translateX + dx, translateY: matrix.translateY + dy };
}

/** Scales by `factor` around a screen point, clamped to the zoom range. */
export function zoomBy(
  matrix: TransformMatrix,
  factor: number,
  point: { x: number; y: number },
): TransformMatrix {
  const scale = Math.min(VIEWPORT.maxScale, Math.max(VIEWPORT.minScale, matrix.scaleX * factor));
  const ratio = scale / matrix.scaleX;
  return transform(
    scale,
    point.x - (point.x - matrix.translateX) * ratio,
    point.y - (point.y - matrix.translateY) * ratio,
  );
}

/**
 * Keeps a wheel or pinch zoom inside the range: visx would refuse the whole step at the edge, so
 * the step is shortened instead, around the same screen point.
 */
export function constrainScale(next: TransformMatrix, previous: TransformMatrix): TransformMatrix {
  const scale = next.scaleX;
  if (scale >= VIEWPORT.minScale && scale <= VIEWPORT.maxScale) return next;
  const factor = scale / previous.scaleX;
  if (factor === 1) return previous;
  // next = previous scaled by `factor` around a fixed screen point; recover that point.
  const point = {
    x: (next.translateX - previous.translateX * factor) / (1 - factor),
    y: (next.translateY - previous.translateY * factor) / (1 - factor),
  };
  return zoomBy(previous, factor, point);
}

export type KeyAction = { pan: [number, number] } | { zoom: number } | { view: "fit" | "root" };

/** What a key does on the focused canvas: arrows pan the view, + and - zoom, F fits, 0 re-centres. */
export function keyAction(key: string): KeyAction | null {
  const step = VIEWPORT.panStep;
  switch (key) {
    case "ArrowLeft":
      return { pan: [step, 0] };
    case "ArrowRight":
      return { pan: [-step, 0] };
    case "ArrowUp":
      return { pan: [0, step] };
    case "ArrowDown":
      return { pan: [0, -step] };
    case "+":
    case "=":
      return { zoom: VIEWPORT.zoomStep };
    case "-":
    case "_":
      return { zoom: 1 / VIEWPORT.zoomStep };
    case "f":
    case "F":
      return { view: "fit" };
    case "0":
    case "Home":
      return { view: "root" };
    default:
      return null;
  }
}

/** A wheel step as a zoom factor: proportional to the delta, so trackpads zoom smoothly. */
export function wheelFactor(deltaY: number, deltaMode: number): number {
  const pixels = deltaMode === 1 ? deltaY * 16 : deltaMode === 2 ? deltaY * 400 : deltaY;
  return Math.min(1.25, Math.max(0.8, Math.exp(-pixels * 0.002)));
}

/**
 * The part of the tree to render: the view plus a margin, in layout coordinates, snapped
 * outwards to a grid so that small pans and zooms give the very same rectangle (and the same
 * rendered nodes).
 */
export function cullRect(matrix: TransformMatrix, size: Size): Bounds {
  const scale = matrix.scaleX;
  const margin = VIEWPORT.cullMargin / scale;
  const grid = 2 ** Math.ceil(Math.log2(VIEWPORT.cullGrid / scale));
  const minX = (0 - matrix.translateX) / scale - margin;
  const maxX = (size.width - matrix.translateX) / scale + margin;
  const minY = (0 - matrix.translateY) / scale - margin;
  const maxY = (size.height - matrix.translateY) / scale + margin;
  return {
    minX: Math.floor(minX / grid) * grid,
    maxX: Math.ceil(maxX / grid) * grid,
    minY: Math.floor(minY / grid) * grid,
    maxY: Math.ceil(maxY / grid) * grid,
  };
}

export function toSvgTransform(matrix: TransformMatrix): string {
  return `matrix(${matrix.scaleX},0,0,${matrix.scaleY},${matrix.translateX},${matrix.translateY})`;
}
