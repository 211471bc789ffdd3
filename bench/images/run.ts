/**
 * `npm run bench:images [-- --count 20]`
 *
 * Bytes per stored image (original plus every variant) and encode time per image, before (ADR 004:
 * the original re-encoded in its own format at full size, PNG or JPEG q90 variants) and after
 * (ADR 015: the original capped at 2,048 px as WebP q90, variants in AVIF for browsers that accept
 * it, WebP for the rest of modern ones, PNG/JPEG only for old ones), on `count` generated 1920x1080
 * game screenshots (PNG) and `count` photo-like images (JPEG). SSIM (ssim.js) of each stored or
 * served image against the same picture made losslessly from the upload checks that what the
 * player sees stays sharp. Writes bench/results/images.json.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import sharp, { type Sharp } from "sharp";
import { ssim } from "ssim.js";
import { IMAGE_SIZES } from "../../lib/schemas/upload";
import {
  MASTER_WEBP_QUALITY,
  MAX_STORED_SIDE,
  MIN_MASTER_SSIM,
  MIN_VARIANT_SSIM,
  VARIANT_AVIF,
  VARIANT_JPEG_QUALITY,
  VARIANT_WEBP_QUALITY,
} from "../../lib/server/uploads/lean-image";
import { gameScreenshot, photo } from "./generate";

const root = path.resolve(import.meta.dirname, "../..");
const { values: args } = parseArgs({
  options: { count: { type: "string", default: "20" } },
});
const COUNT = Number(args.count);
const PLUM_TREE_BYTES_PER_IMAGE = 225 * 1024;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const round = (value: number, digits = 0) => Math.round(value * 10 ** digits) / 10 ** digits;
const LOAD_AT_START = os.loadavg().map((l) => round(l, 2));

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await work();
  return [result, performance.now() - started];
}

/** SSIM of two encoded images of the same size (ssim.js, "weber" variant, full resolution). */
async function ssimOf(a: Buffer, b: Buffer): Promise<number> {
  const read = async (bytes: Buffer) => {
    const { data, info } = await sharp(bytes)
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return {
      data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.length),
      width: info.width,
      height: info.height,
    };
  };
  const [x, y] = await Promise.all([read(a), read(b)]);
  return ssim(x, y, { ssim: "weber", downsample: false }).mssim;
}

const resize = (bytes: Buffer, size: string): Sharp => {
  const [width, height] = size.split("x").map(Number);
  return sharp(bytes).resize(width, height, { fit: "cover" });
};

interface Measured {
  uploadBytes: number;
  before: { bytes: number; originalBytes: number; variantBytes: number[]; ms: number };
  after: {
    bytes: number;
    originalBytes: number;
    variantBytes: number[];
    ms: number;
    webpVariantsBytes: number;
    fallbackVariantsBytes: number;
    masterSsim: number;
    minVariantSsim: number;
  };
}

async function measure(upload: Buffer, type: "png" | "jpeg"): Promise<Measured> {
  // Before (ADR 004): re-encoded at full size in its own format; variants in the same format.
  const [beforeFiles, beforeMs] = await timed(async () => {
    const original =
      type === "png"
        ? await sharp(upload).rotate().png().toBuffer()
        : await sharp(upload).rotate().jpeg({ quality: 90 }).toBuffer();
    const variants = [];
    for (const size of IMAGE_SIZES) {
      const pipeline = resize(original, size);
      variants.push(
        await (type === "png" ? pipeline.png() : pipeline.jpeg({ quality: 85 })).toBuffer(),
      );
    }
    return [original, ...variants];
  });

  // After (ADR 015): capped WebP original; AVIF variants (what a modern browser is served).
  const [afterFiles, afterMs] = await timed(async () => {
    const master = await sharp(upload)
      .rotate()
      .resize(MAX_STORED_SIDE, MAX_STORED_SIDE, { fit: "inside", withoutEnlargement: true })
      .webp({ quality: MASTER_WEBP_QUALITY })
      .toBuffer();
    const variants = [];
    for (const size of IMAGE_SIZES)
      variants.push(await resize(master, size).avif(VARIANT_AVIF).toBuffer());
    return [master, ...variants];
  });
  const master = afterFiles[0]!;

  // Other formats (only made when such a browser asks), and SSIM against lossless references.
  let webpVariantsBytes = 0;
  let fallbackVariantsBytes = 0;
  let minVariantSsim = 1;
  for (const [i, size] of IMAGE_SIZES.entries()) {
    const reference = await resize(upload, size).png().toBuffer();
    const webp = await resize(master, size).webp({ quality: VARIANT_WEBP_QUALITY }).toBuffer();
    const fallback = await (
      type === "png"
        ? resize(master, size).png({ compressionLevel: 9 })
        : resize(master, size).jpeg({ quality: VARIANT_JPEG_QUALITY, mozjpeg: true })
    ).toBuffer();
    webpVariantsBytes += webp.length;
    fallbackVariantsBytes += fallback.length;
    for (const served of [afterFiles[i + 1]!, webp, fallback]) {
      minVariantSsim = Math.min(minVariantSsim, await ssimOf(reference, served));
    }
  }
  const masterSsim = await ssimOf(await sharp(upload).png().toBuffer(), master);
  const sum = (files: Buffer[]) => files.reduce((n, f) => n + f.length, 0);
  return {
    uploadBytes: upload.length,
    before: {
      bytes: sum(beforeFiles),
      originalBytes: beforeFiles[0]!.length,
      variantBytes: beforeFiles.slice(1).map((f) => f.length),
      ms: beforeMs,
    },
    after: {
      bytes: sum(afterFiles),
      originalBytes: master.length,
      variantBytes: afterFiles.slice(1).map((f) => f.length),
      ms: afterMs,
      webpVariantsBytes,
      fallbackVariantsBytes,
      masterSsim,
      minVariantSsim,
    },
  };
}

const kb = (bytes: number) => round(bytes / 1024, 1);
/** Median KB of each stored variant, by size ("200x200": 12.3, ...). */
const variantsKbMedian = (list: Measured[], side: "before" | "after") =>
  Object.fromEntries(
    IMAGE_SIZES.map((size, i) => [size, kb(median(list.map((m) => m[side].variantBytes[i]!)))]),
  );

function summarize(kind: string, list: Measured[]) {
  return {
    kind,
    images: list.length,
    uploadKbMedian: kb(median(list.map((m) => m.uploadBytes))),
    before: {
      kbPerImageMedian: kb(median(list.map((m) => m.before.bytes))),
      kbPerImageMean: kb(mean(list.map((m) => m.before.bytes))),
      originalKbMedian: kb(median(list.map((m) => m.before.originalBytes))),
      variantsKbMedian: variantsKbMedian(list, "before"),
      encodeMsMedian: round(median(list.map((m) => m.before.ms))),
    },
    after: {
      kbPerImageMedian: kb(median(list.map((m) => m.after.bytes))),
      kbPerImageMean: kb(mean(list.map((m) => m.after.bytes))),
      originalKbMedian: kb(median(list.map((m) => m.after.originalBytes))),
      variantsKbMedian: variantsKbMedian(list, "after"),
      webpVariantsKbMedian: kb(median(list.map((m) => m.after.webpVariantsBytes))),
      fallbackVariantsKbMedian: kb(median(list.map((m) => m.after.fallbackVariantsBytes))),
      encodeMsMedian: round(median(list.map((m) => m.after.ms))),
      masterSsimMin: round(Math.min(...list.map((m) => m.after.masterSsim)), 4),
      masterSsimMedian: round(median(list.map((m) => m.after.masterSsim)), 4),
      variantSsimMin: round(Math.min(...list.map((m) => m.after.minVariantSsim)), 4),
    },
    ratio: round(
      median(list.map((m) => m.before.bytes)) / median(list.map((m) => m.after.bytes)),
      1,
    ),
    // Every image: upload, then [original, ...variants in IMAGE_SIZES order] in bytes, and ms.
    perImage: list.map((m) => ({
      uploadBytes: m.uploadBytes,
      before: { files: [m.before.originalBytes, ...m.before.variantBytes], ms: round(m.before.ms) },
      after: { files: [m.after.originalBytes, ...m.after.variantBytes], ms: round(m.after.ms) },
    })),
  };
}

const groups = [];
for (const [kind, make, type] of [
  ["game screenshot 1920x1080 (PNG upload)", gameScreenshot, "png"],
  ["photo 1920x1080 (JPEG upload)", photo, "jpeg"],
] as const) {
  const measured: Measured[] = [];
  for (let seed = 1; seed <= COUNT; seed += 1) {
    const upload = await make(seed);
    measured.push(await measure(upload, type));
    const last = measured[measured.length - 1]!;
    console.log(
      `[bench:images] ${kind} #${seed}: upload ${round(upload.length / 1024)} KB; before ${round(last.before.bytes / 1024)} KB in ${round(last.before.ms)} ms; after ${round(last.after.bytes / 1024)} KB in ${round(last.after.ms)} ms; SSIM original ${round(last.after.masterSsim, 4)}, variants >= ${round(last.after.minVariantSsim, 4)}`,
    );
  }
  groups.push(summarize(kind, measured));
}

const result = {
  benchmark: "bench:images",
  ranAt: new Date().toISOString(),
  machine: "shared 2-core VM, other builds running: times are noisy",
  loadAverage: { atStart: LOAD_AT_START, atEnd: os.loadavg().map((l) => round(l, 2)) },
  method:
    "bytes = original + one variant at each of " +
    IMAGE_SIZES.join(", ") +
    " (after: AVIF variants, what a browser that accepts AVIF is served; webp/fallback variants are made only when such a browser asks, and listed apart). Encode time = the upload's re-encode plus every variant, one image at a time. SSIM: ssim.js (weber), full resolution, against the same picture resized losslessly from the upload.",
  plumTreeKbPerImage: PLUM_TREE_BYTES_PER_IMAGE / 1024,
  thresholds: { MIN_MASTER_SSIM, MIN_VARIANT_SSIM },
  settings: {
    MAX_STORED_SIDE,
    MASTER_WEBP_QUALITY,
    VARIANT_AVIF,
    VARIANT_WEBP_QUALITY,
    VARIANT_JPEG_QUALITY,
  },
  groups,
  thresholdsMet: groups.every(
    (g) => g.after.masterSsimMin >= MIN_MASTER_SSIM && g.after.variantSsimMin >= MIN_VARIANT_SSIM,
  ),
};
fs.mkdirSync(path.join(root, "bench/results"), { recursive: true });
fs.writeFileSync(
  path.join(root, "bench/results/images.json"),
  `${JSON.stringify(result, null, 2)}\n`,
);
console.log(
  JSON.stringify(
    groups.map(({ perImage: _, ...summary }) => summary),
    null,
    2,
  ),
);
