// DBPF 2.1, the game's package container: a 96-byte header, resources, and an index whose
// values shared by every entry are stored once after its flags. Every declared position and
// length is checked against the file before it is used.
import { inflateSync } from "node:zlib";
import { ImportError } from "@/lib/import/types";
import { Cursor } from "./cursor";
import { SIMS4_LIMITS } from "./limits";
import { inflateRefPack } from "./refpack";
import { looksLikeDbpf } from "./sniff";

export interface DbpfEntry {
  type: number;
  group: number;
  instance: bigint;
  offset: number;
  storedSize: number;
  memSize: number;
  compression: number;
}

export const COMPRESSION = { none: 0x0000, zlib: 0x5a42, refpack: 0xffff, deleted: 0xffe0 } as const;

const HEADER_SIZE = 96;

export { looksLikeDbpf };

/** The index of a DBPF 2.1 package. */
export function readDbpfIndex(bytes: Uint8Array): DbpfEntry[] {
  if (!looksLikeDbpf(bytes)) throw new ImportError("This file is not a Sims 4 save.");
  if (bytes.length < HEADER_SIZE) {
    throw new ImportError("The save is truncated: it is shorter than its header.");
  }
  const header = new Cursor(bytes, 4, HEADER_SIZE, "The save");
  const major = header.u32();
  const minor = header.u32();
  if (major !== 2 || minor !== 1) {
    throw new ImportError(
      `This package is DBPF ${major}.${minor}; only The Sims 4's DBPF 2.1 saves can be read.`,
    );
  }
  header.seek(0x24);
  const count = header.u32();
  header.seek(0x2c);
  const indexSize = header.u32();
  header.seek(0x40);
  let indexPos = header.u64Number();
  if (indexPos === 0) {
    header.seek(0x28);
    indexPos = header.u32();
  }
  if (count > SIMS4_LIMITS.maxIndexEntries) {
    throw new ImportError(`The save declares ${count.toLocaleString("en-US")} resources, more than a save can hold.`);
  }
  if (indexPos + indexSize > bytes.length || indexPos < HEADER_SIZE && count > 0) {
    throw new ImportError("The save is truncated or damaged: its index lies past the end of the file.");
  }
  const index = new Cursor(bytes, indexPos, indexPos + indexSize, "The save's index");
  if (count === 0) return [];
  const flags = index.u32();
  const constant = (bit: number) => (flags & bit ? index.u32() : null);
  const type = constant(1);
  const group = constant(2);
  const instHigh = constant(4);
  const instLow = constant(8);
  // each entry holds at least offset, size and memory size
  const perEntry = 12 + 4 * [type, group, instHigh, instLow].filter((v) => v === null).length;
  if (count * perEntry > index.remaining) {
    throw new ImportError("The save is damaged: its index is shorter than the resources it lists.");
  }
  const entries: DbpfEntry[] = [];
  for (let i = 0; i < count; i += 1) {
    const t = type ?? index.u32();
    const g = group ?? index.u32();
    const hi = instHigh ?? index.u32();
    const lo = instLow ?? index.u32();
    const offset = index.u32();
    const rawSize = index.u32();
    const memSize = index.u32();
    let compression: number = COMPRESSION.none;
    if (rawSize & 0x80000000) {
      compression = index.u16();
      index.u16(); // committed
    }
    const storedSize = rawSize & 0x7fffffff;
    if (compression !== COMPRESSION.deleted && offset + storedSize > bytes.length) {
      throw new ImportError("The save is truncated or damaged: a resource lies past the end of the file.");
    }
    entries.push({ type: t, group: g, instance: (BigInt(hi) << 32n) | BigInt(lo), offset, storedSize, memSize, compression });
  }
  return entries;
}

function looksLikeZlib(data: Uint8Array): boolean {
  return data.length >= 2 && data[0] === 0x78 && ((data[0] << 8) | data[1]!) % 31 === 0;
}

/** A resource's bytes, inflated (zlib or RefPack) to at most its declared size and the cap. */
export function readDbpfResource(bytes: Uint8Array, entry: DbpfEntry, cap: number = SIMS4_LIMITS.maxResourceBytes): Uint8Array {
  const data = bytes.subarray(entry.offset, entry.offset + entry.storedSize);
  if (entry.compression === COMPRESSION.none) return data;
  if (entry.memSize > cap) {
    throw new ImportError(
      `The save declares a part of ${entry.memSize.toLocaleString("en-US")} bytes, more than we read (${cap.toLocaleString("en-US")}).`,
    );
  }
  if (looksLikeZlib(data) || (entry.compression === COMPRESSION.zlib && data[1] !== 0xfb)) {
    try {
      return inflateSync(data, { maxOutputLength: Math.max(1, entry.memSize) });
    } catch (error) {
      if (error instanceof RangeError || (error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") {
        throw new ImportError("The save is damaged: a compressed part of it inflates past its declared size.");
      }
      throw new ImportError("The save is damaged: a compressed part of it does not decode.");
    }
  }
  if (data[1] === 0xfb) {
    const out = inflateRefPack(data, Math.min(cap, entry.memSize));
    return out;
  }
  throw new ImportError(
    `The save uses a compression we cannot read (0x${entry.compression.toString(16).toUpperCase()}).`,
  );
}
