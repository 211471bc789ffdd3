import type { TransformMatrix } from "@visx/zoom";
import type { Bounds } from "@/lib/tree/layout";

/** Zoom and viewport constants (SPEC.md section 9 for the range and the top padding). */
export const VIEWPORT = {
  minScale: 0.1,
  maxScale: 3,
  topPadding: 120,
  /** Screen pixels per arrow key press. */
  panStep: 80,
  zoomStep: 1.2,
  /** Screen pixels rendered beyond each edge, so a pan shows nodes that are already there. */
  cullMargin: 240,
  /** The culling rectangle snaps to a grid of about this many screen pixels. */
  cullGrid: 256,
  /** Below this scale nodes are drawn without names, images and buttons. */
  detailScale: 0.3,
  /** Screen pixels kept free around the tree when it is fitted to the view. */
  fitPadding: 24,
  /** Above it, room for the Tree Info button. */
  fitTop: 60,
  /**
   * The smallest zoom at which names (11 px text) are still read comfortably: the tree is fitted
   * on open only if it fits at this zoom or larger (issue 15); otherwise the root is centred.
   */
  readableScale: 0.75,
} as const;

export interface Size {
  width: number;
  height: number;
}

export function transform(scale: number, translateX: number, translateY: number): TransformMatrix {
  return { scaleX: scale, scaleY: scale, translateX, translateY, skewX: 0, skewY: 0 };
}

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
 * The whole of `bounds` in the middle of the view, as large as it fits but never above 1×
 * (a small tree is not blown up), and never below the zoom range.
 */
export function fitTransform(size: Size, bounds: Bounds): TransformMatrix {
  const { fitPadding: pad, fitTop: top } = VIEWPORT;
  const width = Math.max(1, bounds.maxX - bounds.minX);
  const height = Math.max(1, bounds.maxY - bounds.minY);
  const room = { width: size.width - 2 * pad, height: size.height - top - pad };
  const scale = Math.max(VIEWPORT.minScale, Math.min(1, room.width / width, room.height / height));
  const cx = (bounds.minX + bounds.maxX) / 2;
  const cy = (bounds.minY + bounds.maxY) / 2;
  return transform(scale, pad + room.width / 2 - cx * scale, top + room.height / 2 - cy * scale);
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
