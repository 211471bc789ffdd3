import type { Bounds } from "@/lib/tree/layout";
import { pixelSize } from "./tree-svg";

/** Chromium's canvas limits: 32,767 pixels a side and 268,435,456 pixels (16,384²) in all. */
export const CANVAS_LIMITS = { maxSide: 32_767, maxArea: 268_435_456 } as const;
/** The scales the export dialog offers. */
export const EXPORT_SCALE = { min: 0.5, max: 4, step: 0.5, initial: 1 } as const;

export interface ExportScale {
  /** The scale the file is made at. */
  scale: number;
  /** True when the chosen scale was lowered to stay within the canvas limits. */
  clamped: boolean;
  width: number;
  height: number;
}

/**
 * The scale an image of `rect` is made at: the chosen one (kept in EXPORT_SCALE's range), lowered
 * for a PNG until the canvas fits Chromium's limits. An SVG is not rasterised, so it is never
 * lowered.
 */
export function exportScale(rect: Bounds, chosen: number, format: "png" | "svg"): ExportScale {
  const wanted = Math.min(EXPORT_SCALE.max, Math.max(EXPORT_SCALE.min, chosen || 1));
  let scale = wanted;
  if (format === "png") {
    const w = rect.maxX - rect.minX;
    const h = rect.maxY - rect.minY;
    const fit = Math.min(
      CANVAS_LIMITS.maxSide / w,
      CANVAS_LIMITS.maxSide / h,
      Math.sqrt(CANVAS_LIMITS.maxArea / (w * h)),
    );
    // Rounding to whole pixels must not push the canvas back over a limit.
    if (fit < scale) scale = Math.floor(fit * 10_000) / 10_000;
    while (scale > 0) {
      const size = pixelSize(rect, scale);
      const fits =
        size.width <= CANVAS_LIMITS.maxSide &&
        size.height <= CANVAS_LIMITS.maxSide &&
        size.width * size.height <= CANVAS_LIMITS.maxArea;
      if (fits) break;
      scale = Math.floor(scale * 0.999 * 10_000) / 10_000;
    }
  }
  return { scale, clamped: scale < wanted, ...pixelSize(rect, scale) };
}
