// One gzip body from parts deflated apart (as pigz does): each part but the last ends with a sync
// flush (byte-aligned, not final), so their deflate streams joined are one deflate stream, and
// the gzip trailer's CRC-32 runs over the parts' bytes in order. The editor's tree
// (canvas-read.ts) deflates its people while its tree part is still being put together, on
// another thread, and keeps each part's deflated form for as long as the part is current.
import { promisify } from "node:util";
import zlib from "node:zlib";

const deflateRaw = promisify(zlib.deflateRaw);

/** A part's bytes and its raw deflate stream. */
export interface DeflatedPart {
  bytes: Buffer;
  deflated: Buffer;
}

/** Level 1, as every gzipped answer of the front (fast-reads.ts): a fifth of level 6's CPU. */
const LEVEL = 1;

/** A part that others follow: its deflate stream ends with a sync flush, not a final block. */
export async function deflateMiddle(bytes: Buffer): Promise<DeflatedPart> {
  const deflated = await deflateRaw(bytes, {
    level: LEVEL,
    finishFlush: zlib.constants.Z_SYNC_FLUSH,
  });
  return { bytes, deflated };
}

/** The last part: its deflate stream ends with the final block. */
export async function deflateLast(bytes: Buffer): Promise<DeflatedPart> {
  return { bytes, deflated: await deflateRaw(bytes, { level: LEVEL }) };
}

/** gzip's header: deflate, no name or time, extra flags 4 (fastest), OS 255 (unknown). */
const HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 4, 0xff]);

/** The gzip body of the parts in order: every part but the last made by deflateMiddle. */
export function gzipOf(parts: readonly DeflatedPart[]): Buffer {
  let crc = 0;
  let size = 0;
  for (const part of parts) {
    // (Node 20's crc32 of no bytes answers 0 for a starting value of 2^31 or more)
    if (part.bytes.length > 0) crc = zlib.crc32(part.bytes, crc);
    size += part.bytes.length;
  }
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  // ISIZE is the length modulo 2^32
  trailer.writeUInt32LE(size % 2 ** 32, 4);
  return Buffer.concat([HEADER, ...parts.map((part) => part.deflated), trailer]);
}
