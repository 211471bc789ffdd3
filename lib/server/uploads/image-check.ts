import "server-only";
import sharp, { type Metadata } from "sharp";
import { MAX_UPLOAD_PIXELS, type UPLOAD_TYPES } from "@/lib/schemas/upload";
import { ApiError } from "@/lib/server/http/errors";
import { encodeMaster } from "./lean-image";

export type ImageType = (typeof UPLOAD_TYPES)[number];

export interface CheckedImage {
  /** The type the upload was declared and proved to be (the image name's extension). */
  contentType: ImageType;
  /**
   * The lean original to store (ADR 015): decoded once, EXIF orientation applied, scaled to at
   * most MAX_STORED_SIDE, re-encoded as WebP with every metadata block dropped.
   */
  bytes: Buffer;
  /** The stored bytes' type: image/webp. */
  storedType: "image/webp";
  width: number;
  height: number;
}

export const NOT_AN_IMAGE = "File must be a JPG or PNG";
export const POLYGLOT =
  "This image carries data that is not part of the picture. Please save it again as a plain JPG or PNG.";
export const DAMAGED = "This image is damaged or incomplete and could not be read";
export const TOO_MANY_PIXELS = `Images must be at most ${MAX_UPLOAD_PIXELS / 1_000_000} megapixels`;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG_SIGNATURE = Buffer.from([0xff, 0xd8, 0xff]);

/** How far into a file markup is looked for (what content sniffers inspect). */
export const MARKUP_SCAN_BYTES = 1024;
const MARKUP = ["<script", "<html", "<svg", "<!doctype", "<body", "<iframe"];
/** Bytes after the end of the image that are tolerated as padding, not as a payload. */
export const MAX_TRAILING_PADDING = 4096;
const PADDING = new Set([0x00, 0xff, 0x09, 0x0a, 0x0d, 0x20]);

/** The real type of a file from its magic bytes, or null when it is neither PNG nor JPEG. */
export function sniffImageType(bytes: Uint8Array): ImageType | null {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 8));
  if (head.length >= 8 && head.equals(PNG_SIGNATURE)) return "image/png";
  if (head.length >= 3 && head.subarray(0, 3).equals(JPEG_SIGNATURE)) return "image/jpeg";
  return null;
}

/** Walks the PNG chunks (without inflating anything) and answers the offset just after IEND. */
function pngEnd(bytes: Buffer): number {
  let offset = PNG_SIGNATURE.length;
  let first = true;
  for (;;) {
    if (offset + 12 > bytes.length) throw new ApiError(400, DAMAGED);
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString("latin1", offset + 4, offset + 8);
    const next = offset + 12 + length;
    if (length > 0x7fffffff || next > bytes.length) throw new ApiError(400, DAMAGED);
    if (first && type !== "IHDR") throw new ApiError(400, DAMAGED);
    first = false;
    offset = next;
    if (type === "IEND") return offset;
  }
}

/**
 * Walks the JPEG segments and entropy-coded scans and answers the offset just after the EOI marker
 * that ends the image. Thumbnails inside EXIF segments are skipped with their segment.
 */
function jpegEnd(bytes: Buffer): number {
  let offset = 2;
  for (;;) {
    if (offset + 2 > bytes.length || bytes[offset] !== 0xff) throw new ApiError(400, DAMAGED);
    while (bytes[offset + 1] === 0xff) offset += 1; // fill bytes before a marker
    const marker = bytes[offset + 1];
    if (marker === undefined) throw new ApiError(400, DAMAGED);
    offset += 2;
    if (marker === 0xd9) return offset; // EOI
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue; // no length
    if (offset + 2 > bytes.length) throw new ApiError(400, DAMAGED);
    const length = bytes.readUInt16BE(offset);
    if (length < 2 || offset + length > bytes.length) throw new ApiError(400, DAMAGED);
    offset += length;
    if (marker !== 0xda) continue;
    // Entropy-coded data after SOS runs to the next marker other than a stuffed 0xFF00 or an RSTn.
    for (;;) {
      const ff = bytes.indexOf(0xff, offset);
      if (ff < 0 || ff + 1 >= bytes.length) throw new ApiError(400, DAMAGED);
      const next = bytes[ff + 1] ?? 0;
      if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) offset = ff + 2;
      else if (next === 0xff) offset = ff + 1;
      else {
        offset = ff;
        break;
      }
    }
  }
}

/**
 * A polyglot, concretely: a file that is a valid image and something else too. Refused are
 * (1) HTML or SVG markup anywhere in the first KB, where content sniffers look, and (2) any
 * byte after the image's end (PNG IEND chunk, JPEG EOI marker) other than up to 4 KB of padding,
 * which is where appended HTML, ZIP or script payloads go.
 */
export function findPolyglot(bytes: Buffer, type: ImageType): string | null {
  const head = bytes.toString("latin1", 0, MARKUP_SCAN_BYTES).toLowerCase();
  const tag = MARKUP.find((t) => head.includes(t));
  if (tag) return `markup ${tag} in the first ${MARKUP_SCAN_BYTES} bytes`;
  const end = type === "image/png" ? pngEnd(bytes) : jpegEnd(bytes);
  const trailing = bytes.subarray(end);
  if (trailing.length > MAX_TRAILING_PADDING || trailing.some((b) => !PADDING.has(b))) {
    return `${trailing.length} bytes after the end of the image`;
  }
  return null;
}

/**
 * Everything an upload must pass, cheapest first:
 * 1. magic bytes say PNG or JPEG, and match the declared type;
 * 2. no polyglot (see `findPolyglot`) and a well-formed chunk or segment structure;
 * 3. the header's dimensions (sharp metadata reads the header only) are within MAX_UPLOAD_PIXELS,
 *    checked before any pixel is decoded; sharp's limitInputPixels backs this up;
 * 4. one full decode, which proves integrity, and a re-encode as the lean original (ADR 015:
 *    WebP, at most 2,048 px on its longest side). The re-encoded bytes are what we store: EXIF
 *    (camera, GPS), XMP, comments and any smuggled chunk are gone, and the orientation is baked
 *    into the pixels.
 */
export async function checkImage(bytes: Buffer, declaredType: ImageType): Promise<CheckedImage> {
  const realType = sniffImageType(bytes);
  if (!realType) throw new ApiError(400, NOT_AN_IMAGE);
  if (realType !== declaredType) {
    const real = realType === "image/png" ? "PNG" : "JPG";
    throw new ApiError(400, `${NOT_AN_IMAGE}, and this one is a ${real} sent as ${declaredType}`);
  }
  if (findPolyglot(bytes, realType)) throw new ApiError(400, POLYGLOT);

  let header: Metadata;
  try {
    header = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new ApiError(400, DAMAGED);
  }
  const expectedFormat = realType === "image/png" ? "png" : "jpeg";
  if (header.format !== expectedFormat || !header.width || !header.height) {
    throw new ApiError(400, DAMAGED);
  }
  if (header.width * header.height > MAX_UPLOAD_PIXELS) throw new ApiError(400, TOO_MANY_PIXELS);

  try {
    const { data, info } = await encodeMaster(
      sharp(bytes, { limitInputPixels: MAX_UPLOAD_PIXELS, failOn: "warning" }),
    );
    return {
      contentType: realType,
      storedType: "image/webp",
      bytes: data,
      width: info.width,
      height: info.height,
    };
  } catch {
    throw new ApiError(400, DAMAGED);
  }
}
