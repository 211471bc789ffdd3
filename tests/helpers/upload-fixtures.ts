// Image fixtures for the upload tests: real images made with sharp, and hostile files crafted by hand.
import { crc32, deflateSync } from "node:zlib";
import sharp, { type Sharp } from "sharp";

/** A real, noisy RGB image (noise keeps the encoders honest about size and content). */
async function rawNoise(width: number, height: number): Promise<Sharp> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 7919 + (i >> 5) * 104729) & 255;
  return sharp(pixels, { raw: { width, height, channels: 3 } });
}

export async function makePng(width = 640, height = 480): Promise<Buffer> {
  return (await rawNoise(width, height)).png().toBuffer();
}

export async function makeJpeg(
  width = 640,
  height = 480,
  options: { exif?: Record<string, Record<string, string>> } = {},
): Promise<Buffer> {
  const image = (await rawNoise(width, height)).jpeg({ quality: 85 });
  return (options.exif ? image.withExifMerge(options.exif) : image).toBuffer();
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * A decompression bomb in miniature: a valid PNG header declaring width x height RGB pixels
 * (10^10 for the default), with a tiny IDAT. Decoding it would need ~30 GB; it is ~100 bytes.
 */
export function makePixelFloodPng(width = 100_000, height = 100_000): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  ihdr[10] = 0; // compression
  ihdr[11] = 0; // filter
  ihdr[12] = 0; // no interlace
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk("IHDR", ihdr),
    pngChunk("IDAT", deflateSync(Buffer.alloc(1024))),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

export const HTML_FILE = Buffer.from(
  '<!doctype html><html><body><script>alert("xss")</script></body></html>\n',
);

export const SVG_FILE = Buffer.from(
  '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" onload="alert(1)">' +
    '<rect width="10" height="10" fill="red"/><script>alert("xss")</script></svg>\n',
);

/** A real PNG with an HTML page appended after its IEND chunk (what a browser sniffing HTML would run). */
export async function makePngHtmlPolyglot(): Promise<Buffer> {
  return Buffer.concat([await makePng(32, 32), HTML_FILE]);
}

/** A real JPEG with HTML after its end-of-image marker. */
export async function makeJpegHtmlPolyglot(): Promise<Buffer> {
  return Buffer.concat([await makeJpeg(32, 32), HTML_FILE]);
}

/** A real PNG with a ZIP archive (local header … end of central directory) appended, as in GIFAR-style polyglots. */
export async function makePngZipPolyglot(): Promise<Buffer> {
  const zipLike = Buffer.concat([
    Buffer.from([0x50, 0x4b, 0x03, 0x04]),
    Buffer.alloc(26),
    Buffer.from("evil.html<script>alert(1)</script>"),
    Buffer.from([0x50, 0x4b, 0x05, 0x06]),
    Buffer.alloc(18),
  ]);
  return Buffer.concat([await makePng(32, 32), zipLike]);
}

/** A PNG whose first kilobyte carries markup in a text chunk, inside an otherwise valid file. */
export async function makePngWithMarkupChunk(): Promise<Buffer> {
  const png = await makePng(32, 32);
  const afterIhdr = 8 + 25;
  const text = pngChunk("tEXt", Buffer.from("Comment\0<svg onload=alert(1)>", "latin1"));
  return Buffer.concat([png.subarray(0, afterIhdr), text, png.subarray(afterIhdr)]);
}

/** A PNG cut off in the middle of its image data. */
export async function makeTruncatedPng(): Promise<Buffer> {
  const png = await makePng(256, 256);
  return png.subarray(0, Math.floor(png.length / 2));
}

/** `size` bytes that start like a PNG (so only the size check can refuse them). */
export function makeOversizedFile(size: number): Buffer {
  const bytes = Buffer.alloc(size);
  PNG_SIGNATURE.copy(bytes);
  return bytes;
}
