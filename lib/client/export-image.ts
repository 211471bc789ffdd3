"use client";
import { loadAvatars, loadExportFont } from "@/components/tree-export/embed";
import { exportScale, type ExportScale } from "@/components/tree-export/scale";
import { avatarKeysInRect, buildTreeSvg, wholeTreeRect } from "@/components/tree-export/tree-svg";
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
}

export interface ImageExport extends ExportScale {
  blob: Blob;
  filename: string;
  /** Milliseconds spent on each step, for the benchmark. */
  timings: { embedMs: number; svgMs: number; rasterMs: number; totalMs: number };
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

async function rasterize(svg: string, width: number, height: number): Promise<Blob> {
  const url = URL.createObjectURL(new Blob([svg], { type: "image/svg+xml" }));
  try {
    const image = new Image(width, height);
    image.decoding = "async";
    image.src = url;
    await image.decode();
    const canvas = document.createElement("canvas");
    canvas.width = width;
    canvas.height = height;
    const context = canvas.getContext("2d");
    if (!context) throw new Error("This browser cannot draw the image");
    context.drawImage(image, 0, 0, width, height);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob(
        (blob) => (blob ? resolve(blob) : reject(new Error("The image is too large to draw"))),
        "image/png",
      ),
    );
  } finally {
    URL.revokeObjectURL(url);
  }
}

/**
 * Makes a PNG or SVG of the tree in the browser: the SVG is built from the layout, with the font
 * and each distinct avatar embedded as data: URIs so the file stands alone; a PNG is that SVG
 * drawn on a canvas.
 */
export async function exportTreeImage(options: ImageExportOptions): Promise<ImageExport> {
  const started = performance.now();
  const rect = exportRect(options.layout, options.region);
  const plan = exportScale(rect, options.scale, options.format);
  const [fontDataUri, avatars] = await Promise.all([
    loadExportFont().catch(() => null),
    loadAvatars(avatarKeysInRect(options.layout, options.people, rect), plan.scale),
  ]);
  const embedded = performance.now();
  const { svg } = buildTreeSvg({
    layout: options.layout,
    people: options.people,
    rect,
    scale: plan.scale,
    title: options.title,
    fontDataUri,
    avatars,
  });
  const built = performance.now();
  const blob =
    options.format === "svg"
      ? new Blob([svg], { type: "image/svg+xml" })
      : await rasterize(svg, plan.width, plan.height);
  const done = performance.now();
  return {
    ...plan,
    blob,
    filename: imageFilename(options.title, options.format),
    timings: {
      embedMs: embedded - started,
      svgMs: built - embedded,
      rasterMs: done - built,
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
