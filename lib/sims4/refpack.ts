// The game's RefPack (QFS) decompression: a header with the size it inflates to, then control
// codes that copy literal bytes and earlier output. Written here because no maintained npm
// package decodes it (ADR 026). Every copy is checked against the declared size, the declared
// size against the caller's cap and against what the input can possibly produce.
import { ImportError } from "@/lib/import/types";

const DAMAGED = "The save is damaged: a compressed part of it does not decode.";

/** RefPack data starts with a flags byte, then 0xFB. */
export function looksLikeRefPack(data: Uint8Array): boolean {
  return data.length >= 5 && data[1] === 0xfb;
}

/** Decompresses RefPack `data` that declares at most `cap` bytes out. */
export function inflateRefPack(data: Uint8Array, cap: number): Uint8Array {
  if (!looksLikeRefPack(data)) throw new ImportError(DAMAGED);
  const flags = data[0]!;
  const width = flags & 0x80 ? 4 : 3;
  let at = 2;
  const readSize = () => {
    if (at + width > data.length) throw new ImportError(DAMAGED);
    let size = 0;
    for (let i = 0; i < width; i += 1) size = size * 256 + data[at + i]!;
    at += width;
    return size;
  };
  // flag 0x01: the compressed size comes first (never seen in the game's saves, but legal)
  if (flags & 0x01) readSize();
  const size = readSize();
  if (size > cap) {
    throw new ImportError(
      `The save declares a part of ${size.toLocaleString("en-US")} bytes, more than we read (${cap.toLocaleString("en-US")}).`,
    );
  }
  // One control code of 4 bytes yields at most 1,031 bytes: a size beyond that is a bomb.
  if (size > (data.length - at) * 258 + 4) throw new ImportError(DAMAGED);
  const out = new Uint8Array(size);
  let pos = 0;
  const n = data.length;
  for (;;) {
    if (at >= n) throw new ImportError(DAMAGED);
    const b0 = data[at]!;
    let plain: number;
    let copy = 0;
    let offset = 0;
    let stop = false;
    if (b0 < 0x80) {
      if (at + 2 > n) throw new ImportError(DAMAGED);
      const b1 = data[at + 1]!;
      at += 2;
      plain = b0 & 0x03;
      copy = ((b0 & 0x1c) >> 2) + 3;
      offset = ((b0 & 0x60) << 3) + b1 + 1;
    } else if (b0 < 0xc0) {
      if (at + 3 > n) throw new ImportError(DAMAGED);
      const b1 = data[at + 1]!;
      const b2 = data[at + 2]!;
      at += 3;
      plain = (b1 >> 6) & 0x03;
      copy = (b0 & 0x3f) + 4;
      offset = ((b1 & 0x3f) << 8) + b2 + 1;
    } else if (b0 < 0xe0) {
      if (at + 4 > n) throw new ImportError(DAMAGED);
      const b1 = data[at + 1]!;
      const b2 = data[at + 2]!;
      const b3 = data[at + 3]!;
      at += 4;
      plain = b0 & 0x03;
      copy = ((b0 & 0x0c) << 6) + b3 + 5;
      offset = ((b0 & 0x10) << 12) + (b1 << 8) + b2 + 1;
    } else if (b0 < 0xfc) {
      at += 1;
      plain = ((b0 & 0x1f) << 2) + 4;
    } else {
      at += 1;
      plain = b0 & 0x03;
      stop = true;
    }
    if (plain > 0) {
      if (at + plain > n || pos + plain > size) throw new ImportError(DAMAGED);
      out.set(data.subarray(at, at + plain), pos);
      at += plain;
      pos += plain;
    }
    if (copy > 0) {
      if (offset > pos || pos + copy > size) throw new ImportError(DAMAGED);
      let from = pos - offset;
      if (offset >= copy) {
        out.copyWithin(pos, from, from + copy);
        pos += copy;
      } else {
        for (let i = 0; i < copy; i += 1) out[pos++] = out[from++]!;
      }
    }
    if (stop) break;
  }
  if (pos !== size) throw new ImportError(DAMAGED);
  return out;
}
