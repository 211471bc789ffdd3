import sharp, { type OutputInfo, type Sharp } from "sharp";
import { MAX_UPLOAD_PIXELS } from "@/lib/schemas/upload";
import type { LeanFormat } from "./image-files";

// ADR 015: what is stored and served, and at what quality. The qualities were chosen with
// bench:images (bench/results/images.json), whose SSIM figures on generated game screenshots and
// photos must stay at or above the thresholds below; tests check them on a sample.

/** The longest side an original is stored at; larger uploads are scaled down to it. */
export const MAX_STORED_SIDE = 2048;
/** The stored original: WebP at this quality (game screenshots keep their UI text readable). */
export const MASTER_WEBP_QUALITY = 90;
/** Variants served to browsers that accept AVIF. Effort 3 keeps a 1200x640 encode well under 1 s. */
export const VARIANT_AVIF = { quality: 60, effort: 3 } as const;
/** Variants served to browsers that accept WebP but not AVIF. */
export const VARIANT_WEBP_QUALITY = 82;
/** Variants in the name's own format for every other browser. */
export const VARIANT_JPEG_QUALITY = 85;

/** SSIM (ssim.js, luma, 11x11 Gaussian) the stored original keeps against the capped upload. */
export const MIN_MASTER_SSIM = 0.95;
/** SSIM every served variant keeps against the same variant made losslessly from the upload. */
export const MIN_VARIANT_SSIM = 0.92;

/**
 * The lean original of a decoded upload: auto-rotated, at most MAX_STORED_SIDE on its longest
 * side, WebP without any metadata block (EXIF, XMP, ICC are dropped; sRGB is assumed).
 */
export function encodeMaster(pipeline: Sharp): Promise<{ data: Buffer; info: OutputInfo }> {
  return pipeline
    .rotate()
    .resize(MAX_STORED_SIDE, MAX_STORED_SIDE, { fit: "inside", withoutEnlargement: true })
    .webp({ quality: MASTER_WEBP_QUALITY })
    .toBuffer({ resolveWithObject: true });
}

/** A stored image's pixels, for making variants and crops. */
export function openStored(bytes: Buffer): Sharp {
  return sharp(bytes, { limitInputPixels: MAX_UPLOAD_PIXELS });
}

/** The content type of a variant in `format`, or in the image's own type when null. */
export function variantContentType(format: LeanFormat | null, ownType: string): string {
  return format === "avif" ? "image/avif" : format === "webp" ? "image/webp" : ownType;
}

/** Encodes a (resized) variant in `format`, or in the image's own type (PNG or JPEG) when null. */
export function encodeVariant(
  pipeline: Sharp,
  format: LeanFormat | null,
  ownType: string,
): Promise<Buffer> {
  if (format === "avif") return pipeline.avif(VARIANT_AVIF).toBuffer();
  if (format === "webp") return pipeline.webp({ quality: VARIANT_WEBP_QUALITY }).toBuffer();
  return ownType === "image/png"
    ? pipeline.png({ compressionLevel: 9 }).toBuffer()
    : pipeline.jpeg({ quality: VARIANT_JPEG_QUALITY, mozjpeg: true }).toBuffer();
}
