// The canvas's zoom constants and the fitted view: pure, shared by the canvas
// (components/tree-canvas/viewport.ts re-exports them) and by the server's opening view
// (lib/public-tree/opening-view.ts), which is worked out in a worker thread for a large tree.
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
