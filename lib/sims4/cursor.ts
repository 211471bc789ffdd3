// A little-endian cursor over a byte buffer that checks every read against what remains.
import { ImportError } from "@/lib/import/types";

export class Cursor {
  pos: number;

  constructor(
    readonly bytes: Uint8Array,
    start = 0,
    readonly end = bytes.length,
    private readonly what = "The file",
  ) {
    this.pos = start;
  }

  get remaining(): number {
    return this.end - this.pos;
  }

  /** Throws unless `n` more bytes are there. */
  need(n: number): void {
    if (!Number.isSafeInteger(n) || n < 0 || n > this.end - this.pos) {
      throw new ImportError(`${this.what} is truncated or damaged: it ends before the data it declares.`);
    }
  }

  seek(at: number): void {
    if (!Number.isSafeInteger(at) || at < 0 || at > this.end) {
      throw new ImportError(`${this.what} is damaged: it points past its end.`);
    }
    this.pos = at;
  }

  u8(): number {
    this.need(1);
    return this.bytes[this.pos++]!;
  }

  u16(): number {
    this.need(2);
    const b = this.bytes;
    const v = b[this.pos]! | (b[this.pos + 1]! << 8);
    this.pos += 2;
    return v;
  }

  u32(): number {
    this.need(4);
    const b = this.bytes;
    const v =
      (b[this.pos]! | (b[this.pos + 1]! << 8) | (b[this.pos + 2]! << 16) | (b[this.pos + 3]! << 24)) >>> 0;
    this.pos += 4;
    return v;
  }

  /** An unsigned 64-bit value as a number; throws when it is past 2^53 (used for offsets). */
  u64Number(): number {
    const low = this.u32();
    const high = this.u32();
    const value = high * 2 ** 32 + low;
    if (!Number.isSafeInteger(value)) {
      throw new ImportError(`${this.what} is damaged: it declares an impossible position.`);
    }
    return value;
  }

  u64(): bigint {
    const low = this.u32();
    const high = this.u32();
    return (BigInt(high) << 32n) | BigInt(low);
  }

  take(n: number): Uint8Array {
    this.need(n);
    const out = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
}
