import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/server/http/errors";
import {
  HTML_FILE,
  makeJpeg,
  makeJpegHtmlPolyglot,
  makePixelFloodPng,
  makePng,
  makePngHtmlPolyglot,
  makePngWithMarkupChunk,
  makePngZipPolyglot,
  makeTruncatedPng,
  SVG_FILE,
} from "@/tests/helpers/upload-fixtures";
import {
  checkImage,
  DAMAGED,
  findPolyglot,
  NOT_AN_IMAGE,
  POLYGLOT,
  sniffImageType,
  TOO_MANY_PIXELS,
  type ImageType,
} from "./image-check";

async function refusal(bytes: Buffer, type: ImageType) {
  try {
    await checkImage(bytes, type);
    return null;
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, detail: error.detail };
    throw error;
  }
}

/** A JPEG with a second, complete JPEG (SOI…EOI) inside an APP1 segment, like an EXIF thumbnail. */
async function makeJpegWithEmbeddedThumbnail(): Promise<Buffer> {
  const main = await makeJpeg(64, 48);
  const thumbnail = await makeJpeg(8, 8);
  const payload = Buffer.concat([Buffer.from("Exif\0\0"), thumbnail]);
  const header = Buffer.from([0xff, 0xe1, 0, 0]);
  header.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([main.subarray(0, 2), header, payload, main.subarray(2)]);
}

describe("sniffImageType", () => {
  it.each([
    ["a PNG", () => makePng(8, 8), "image/png"],
    ["a JPEG", () => makeJpeg(8, 8), "image/jpeg"],
    ["HTML", async () => HTML_FILE, null],
    ["SVG", async () => SVG_FILE, null],
    ["a GIF", async () => Buffer.from("GIF89a\x01\x00\x01\x00"), null],
    ["an empty file", async () => Buffer.alloc(0), null],
    ["a lone PNG byte", async () => Buffer.from([0x89]), null],
  ])("reads %s by its magic bytes", async (_name, make, expected) => {
    expect(sniffImageType(await make())).toBe(expected);
  });
});

describe("checkImage accepts", () => {
  it("a real PNG, re-encoded as the lean WebP original (ADR 015), with its dimensions", async () => {
    const checked = await checkImage(await makePng(320, 200), "image/png");
    expect(checked).toMatchObject({
      contentType: "image/png",
      storedType: "image/webp",
      width: 320,
      height: 200,
    });
    const meta = await sharp(checked.bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["webp", 320, 200]);
  });

  it("a real JPEG, dropping its EXIF data", async () => {
    const original = await makeJpeg(64, 48, { exif: { IFD0: { Copyright: "GPS-SECRET-MARKER" } } });
    expect(original.includes("GPS-SECRET-MARKER")).toBe(true);
    const checked = await checkImage(original, "image/jpeg");
    expect(checked.bytes.includes("GPS-SECRET-MARKER")).toBe(false);
    expect((await sharp(checked.bytes).metadata()).exif).toBeUndefined();
  });

  it("a JPEG with an EXIF orientation, turning the pixels instead", async () => {
    const rotated = await sharp(await makeJpeg(64, 48))
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const checked = await checkImage(rotated, "image/jpeg");
    expect([checked.width, checked.height]).toEqual([48, 64]);
    expect((await sharp(checked.bytes).metadata()).orientation).toBeUndefined();
  });

  it("a progressive JPEG (several scans)", async () => {
    const progressive = await sharp(await makeJpeg(64, 48))
      .jpeg({ progressive: true })
      .toBuffer();
    await expect(checkImage(progressive, "image/jpeg")).resolves.toMatchObject({ width: 64 });
  });

  it("a JPEG whose EXIF segment holds a complete thumbnail JPEG", async () => {
    const bytes = await makeJpegWithEmbeddedThumbnail();
    expect(findPolyglot(bytes, "image/jpeg")).toBeNull();
    await expect(checkImage(bytes, "image/jpeg")).resolves.toMatchObject({ width: 64, height: 48 });
  });

  it("a little zero padding after the end of the image", async () => {
    const padded = Buffer.concat([await makePng(16, 16), Buffer.alloc(16)]);
    await expect(checkImage(padded, "image/png")).resolves.toMatchObject({ width: 16 });
  });
});

describe("checkImage refuses", () => {
  it.each([
    ["HTML sent as PNG", async () => HTML_FILE, "image/png", NOT_AN_IMAGE],
    ["SVG sent as PNG", async () => SVG_FILE, "image/png", NOT_AN_IMAGE],
    ["an empty file", async () => Buffer.alloc(0), "image/jpeg", NOT_AN_IMAGE],
    [
      "a PNG sent as JPEG",
      () => makePng(8, 8),
      "image/jpeg",
      "File must be a JPG or PNG, and this one is a PNG sent as image/jpeg",
    ],
    [
      "a JPEG sent as PNG",
      () => makeJpeg(8, 8),
      "image/png",
      "File must be a JPG or PNG, and this one is a JPG sent as image/png",
    ],
    ["a PNG with HTML appended", makePngHtmlPolyglot, "image/png", POLYGLOT],
    ["a JPEG with HTML after its EOI", makeJpegHtmlPolyglot, "image/jpeg", POLYGLOT],
    ["a PNG with a ZIP appended", makePngZipPolyglot, "image/png", POLYGLOT],
    ["a PNG with markup in a text chunk", makePngWithMarkupChunk, "image/png", POLYGLOT],
    [
      "a PNG with more than 4 KB of padding",
      async () => Buffer.concat([await makePng(8, 8), Buffer.alloc(5000)]),
      "image/png",
      POLYGLOT,
    ],
    ["a truncated PNG", makeTruncatedPng, "image/png", DAMAGED],
    [
      "a JPEG without its EOI",
      async () => (await makeJpeg(32, 32)).subarray(0, -2),
      "image/jpeg",
      DAMAGED,
    ],
    ["a PNG signature alone", async () => makePixelFloodPng().subarray(0, 8), "image/png", DAMAGED],
    [
      "a PNG whose IDAT does not decode",
      async () => makePixelFloodPng(64, 64),
      "image/png",
      DAMAGED,
    ],
    [
      "a header just over the pixel limit",
      async () => makePixelFloodPng(6325, 6325),
      "image/png",
      TOO_MANY_PIXELS,
    ],
  ] as const)("%s", async (_name, make, type, detail) => {
    expect(await refusal(await make(), type)).toEqual({ status: 400, detail });
  });

  it("a 100,000x100,000 pixel-flood PNG from its header, without decoding it", async () => {
    const flood = makePixelFloodPng();
    expect(flood.length).toBeLessThan(200);
    const before = process.memoryUsage().rss;
    expect(await refusal(flood, "image/png")).toEqual({ status: 400, detail: TOO_MANY_PIXELS });
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024);
  });
});
