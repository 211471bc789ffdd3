// A protobuf reader by field number (ADR 026): the caller names the fields it knows and every
// other field is skipped by its wire type (0 varint, 1 fixed64, 2 length-delimited, 5 fixed32),
// so a newer game patch still reads. Every length is checked against what remains; nested
// messages are read through `sub`, which caps the depth.
import { ImportError } from "@/lib/import/types";
import { SIMS4_LIMITS } from "./limits";

const DAMAGED = "The save is damaged: its data does not decode.";
const utf8 = new TextDecoder("utf-8");

export type ProtoValue =
  | { wire: 0; value: bigint }
  | { wire: 1; value: bigint }
  | { wire: 2; bytes: Uint8Array }
  | { wire: 5; value: number };

export class ProtoReader {
  private pos: number;
  private readonly end: number;

  constructor(
    private readonly buf: Uint8Array,
    readonly depth = 0,
  ) {
    if (depth > SIMS4_LIMITS.maxDepth) {
      throw new ImportError(
        `The save nests its data more than ${SIMS4_LIMITS.maxDepth} levels deep.`,
      );
    }
    this.pos = 0;
    this.end = buf.length;
  }

  /** A reader of a nested message, one level deeper. */
  sub(bytes: Uint8Array): ProtoReader {
    return new ProtoReader(bytes, this.depth + 1);
  }

  private varintNumber(): number {
    // tags and lengths: at most 2^35 fits in 5 bytes; anything longer is refused
    let result = 0;
    let scale = 1;
    for (let i = 0; i < 5; i += 1) {
      if (this.pos >= this.end) throw new ImportError(DAMAGED);
      const b = this.buf[this.pos++]!;
      result += (b & 0x7f) * scale;
      if (b < 0x80) return result;
      scale *= 128;
    }
    throw new ImportError(DAMAGED);
  }

  private varint(): bigint {
    let low = 0;
    let scale = 1;
    let i = 0;
    for (; i < 7; i += 1) {
      if (this.pos >= this.end) throw new ImportError(DAMAGED);
      const b = this.buf[this.pos++]!;
      low += (b & 0x7f) * scale;
      if (b < 0x80) return BigInt(low);
      scale *= 128;
    }
    let result = BigInt(low);
    let shift = 49n;
    for (; i < 10; i += 1) {
      if (this.pos >= this.end) throw new ImportError(DAMAGED);
      const b = this.buf[this.pos++]!;
      result |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return BigInt.asUintN(64, result);
      shift += 7n;
    }
    throw new ImportError(DAMAGED);
  }

  private fixed64(): bigint {
    if (this.pos + 8 > this.end) throw new ImportError(DAMAGED);
    const b = this.buf;
    const p = this.pos;
    const low = (b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16) | (b[p + 3]! << 24)) >>> 0;
    const high = (b[p + 4]! | (b[p + 5]! << 8) | (b[p + 6]! << 16) | (b[p + 7]! << 24)) >>> 0;
    this.pos += 8;
    return (BigInt(high) << 32n) | BigInt(low);
  }

  /** Calls `visit` for every field, in order; unknown ones are the caller's to ignore. */
  each(visit: (field: number, value: ProtoValue) => void): void {
    while (this.pos < this.end) {
      const tag = this.varintNumber();
      const field = Math.floor(tag / 8);
      const wire = tag % 8;
      if (field === 0) throw new ImportError(DAMAGED);
      switch (wire) {
        case 0:
          visit(field, { wire: 0, value: this.varint() });
          break;
        case 1:
          visit(field, { wire: 1, value: this.fixed64() });
          break;
        case 2: {
          const length = this.varintNumber();
          if (length > this.end - this.pos) throw new ImportError(DAMAGED);
          const bytes = this.buf.subarray(this.pos, this.pos + length);
          this.pos += length;
          visit(field, { wire: 2, bytes });
          break;
        }
        case 5: {
          if (this.pos + 4 > this.end) throw new ImportError(DAMAGED);
          const b = this.buf;
          const p = this.pos;
          this.pos += 4;
          visit(field, {
            wire: 5,
            value: (b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16) | (b[p + 3]! << 24)) >>> 0,
          });
          break;
        }
        default:
          // groups (3, 4) were never used by the game; anything else is not protobuf
          throw new ImportError(DAMAGED);
      }
    }
  }

  /**
   * How many values a repeated scalar field holds (packed or not), counted without decoding or
   * allocating: the varints of a packed run are its bytes below 0x80, its fixed64s its length / 8.
   */
  static countInts(value: ProtoValue, kind: "varint" | "fixed64"): number {
    if (value.wire === 0 || value.wire === 1) return 1;
    if (value.wire !== 2) return 0;
    if (kind === "fixed64") {
      if (value.bytes.length % 8 !== 0) throw new ImportError(DAMAGED);
      return value.bytes.length / 8;
    }
    let count = 0;
    for (const b of value.bytes) if (b < 0x80) count += 1;
    return count;
  }

  /**
   * Every value of a repeated scalar field, packed or not, appended to `into` as decimal strings.
   * The values are counted first (countInts): past `max` in `into`, or past the file's id budget,
   * the file is refused with `tooMany` before anything is decoded or allocated.
   */
  static repeatedInts(
    value: ProtoValue,
    kind: "varint" | "fixed64",
    into: string[],
    max: number,
    tooMany: string,
    budget: IdBudget,
  ): void {
    const count = ProtoReader.countInts(value, kind);
    if (into.length + count > max) throw new ImportError(tooMany);
    budget.take(count);
    if (value.wire === 2) {
      const inner = new ProtoReader(value.bytes);
      while (inner.pos < inner.end)
        into.push((kind === "varint" ? inner.varint() : inner.fixed64()).toString());
    } else if (value.wire === 0 || value.wire === 1) {
      into.push(value.value.toString());
    }
  }
}

/**
 * The trait, relation and steady ids one file may name in all (SIMS4_LIMITS.maxIdsPerSave),
 * taken as they are counted, before they are decoded.
 */
export class IdBudget {
  private used = 0;

  take(count: number): void {
    this.used += count;
    if (this.used > SIMS4_LIMITS.maxIdsPerSave) {
      const n = SIMS4_LIMITS.maxIdsPerSave.toLocaleString("en-US");
      throw new ImportError(
        `The save names more than ${n} traits, family relations and partners in all: Heirloom reads at most ${n} per save.`,
      );
    }
  }
}

/** A field's integer value (varint or fixed), or null when it has another wire type. */
export function intOf(value: ProtoValue): bigint | null {
  return value.wire === 0 || value.wire === 1
    ? value.value
    : value.wire === 5
      ? BigInt(value.value)
      : null;
}

/** A small integer field (gender, age, flags) as a number. */
export function numberOf(value: ProtoValue): number | null {
  const v = intOf(value);
  return v === null || v > 0xffffffffn ? null : Number(v);
}

/** A string field, decoded as UTF-8. */
export function stringOf(value: ProtoValue): string | null {
  return value.wire === 2 ? utf8.decode(value.bytes) : null;
}

export function bytesOf(value: ProtoValue): Uint8Array | null {
  return value.wire === 2 ? value.bytes : null;
}
