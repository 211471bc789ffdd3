"use client";
import { paintTree } from "@/lib/tree-image/draw-tree";
import {
  decodeAvatars,
  loadAvatars,
  loadExportFont,
  loadExportFontFace,
} from "@/lib/tree-image/embed";
import { exportScale, type ExportScale } from "@/lib/tree-image/scale";
import { sceneAvatarKeys, treeScene, type TreeScene } from "@/lib/tree-image/tree-scene";
import { buildTreeSvg, wholeTreeRect } from "@/lib/tree-image/tree-svg";
import type { Person } from "@/lib/schemas/person";
import type { Bounds, TreeLayout } from "@/lib/tree/layout";

export type ImageFormat = "png" | "svg";

export interface ImageExportOptions {
  layout: TreeLayout;
  people: ReadonlyMap<string, Person>;
  title: string;
  format: ImageFormat;
  /** The whole tree, or a rectangle of it in layout coordinates (such as the visible part). */
  region: "whole" | Bounds;
  /** Output pixels per layout unit; a PNG may be made smaller (see `exportScale`). */
  scale: number;
  /** The tree's id, for fetching all its avatars at once (default: the tree of its people). */
  treeId?: string | null;
}

export interface ImageExport extends ExportScale {
  blob: Blob;
  filename: string;
  /**
   * Milliseconds spent on each step, for the benchmark (also left as performance measures named
   * "heirloom-export:<step>"): fetching the font and avatars, writing the SVG or painting the
   * canvas (decoding the avatars included), encoding the PNG.
   */
  timings: { embedMs: number; drawMs: number; encodeMs: number; totalMs: number };
}

/** The rectangle an export draws. */
export function exportRect(layout: TreeLayout, region: ImageExportOptions["region"]): Bounds {
  if (region === "whole") return wholeTreeRect(layout);
  return region;
}

/** The scale and pixel size an export will have, before making it (for the dialog). */
export function planImageExport(
  options: Pick<ImageExportOptions, "layout" | "region" | "scale" | "format">,
): ExportScale {
  return exportScale(exportRect(options.layout, options.region), options.scale, options.format);
}

/** A file name from the tree's title: "the-plum-legacy.png". */
export function imageFilename(title: string, format: ImageFormat): string {
  const base = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 80);
  return `${base || "family-tree"}.${format}`;
}

/** The tree the people belong to (people of one tree all carry its id). */
function treeOf(people: ReadonlyMap<string, Person>): string | null {
  for (const person of people.values()) return person.tree || null;
  return null;
}

/** Paints the scene on a canvas of the planned size with the export font and avatars. */
async function paintCanvas(
  scene: TreeScene,
  rect: Bounds,
  plan: ExportScale,
  avatars: ReadonlyMap<string, string>,
): Promise<HTMLCanvasElement> {
  const [images] = await Promise.all([
    decodeAvatars(avatars),
    // Without the font, the painter's font stack falls back to the system's sans-serif.
    loadExportFontFace().catch(() => null),
  ]);
  const canvas = document.createElement("canvas");
  canvas.width = plan.width;
  canvas.height = plan.height;
  // Opaque: the background fills every pixel, and an RGB PNG encodes faster than RGBA.
  const context = canvas.getContext("2d", { alpha: false });
  if (!context) throw new Error("This browser cannot draw the image");
  paintTree(context, { scene, rect, scale: plan.scale, images, path: (d) => new Path2D(d) });
  return canvas;
}

function encodePng(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise<Blob>((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error("The image is too large to draw"))),
      "image/png",
    ),
  );
}

function measure(step: string, start: number, end: number) {
  try {
    performance.measure(`heirloom-export:${step}`, { start, end });
  } catch {
    // measures are for the benchmark only
  }
}

/**
 * Makes a PNG or SVG of the tree in the browser, both from the same scene of the layout. The
 * SVG embeds the font and each distinct avatar as data: URIs, so the file stands alone; a PNG is
 * painted straight onto a canvas with the same font (loaded as a FontFace) and avatars.
 */
export async function exportTreeImage(options: ImageExportOptions): Promise<ImageExport> {
  const started = performance.now();
  const rect = exportRect(options.layout, options.region);
  const plan = exportScale(rect, options.scale, options.format);
  const scene = treeScene(options.layout, options.people, rect);
  const treeId = options.treeId === undefined ? treeOf(options.people) : options.treeId;
  const [fontDataUri, avatars] = await Promise.all([
    options.format === "svg" ? loadExportFont().catch(() => null) : null,
    loadAvatars(sceneAvatarKeys(scene), plan.scale, treeId),
  ]);
  const embedded = performance.now();
  let blob: Blob;
  let drawn: number;
  if (options.format === "svg") {
    const { svg } = buildTreeSvg({
      layout: options.layout,
      people: options.people,
      rect,
      scale: plan.scale,
      title: options.title,
      fontDataUri,
      avatars,
      scene,
    });
    blob = new Blob([svg], { type: "image/svg+xml" });
    drawn = performance.now();
  } else {
    const canvas = await paintCanvas(scene, rect, plan, avatars);
    drawn = performance.now();
    blob = await encodePng(canvas);
    // Frees the canvas's pixels now rather than at the next collection.
    canvas.width = 0;
    canvas.height = 0;
  }
  const done = performance.now();
  measure("embed", started, embedded);
  measure("draw", embedded, drawn);
  measure("encode", drawn, done);
  return {
    ...plan,
    blob,
    filename: imageFilename(options.title, options.format),
    timings: {
      embedMs: embedded - started,
      drawMs: drawn - embedded,
      encodeMs: done - drawn,
      totalMs: done - started,
    },
  };
}

/** Saves a blob through the browser's download. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  link.rel = "noopener";
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked later: Chromium reads the URL after the click returns.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
