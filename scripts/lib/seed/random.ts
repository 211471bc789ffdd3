// Seedable randomness for the scale seed: the same seed gives the same rows, ids included.

export type Random = () => number;

/** mulberry32: a small, fast, seedable PRNG answering floats in [0, 1). */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(rand: Random, list: readonly T[]): T =>
  list[Math.floor(rand() * list.length)]!;

/** An integer in [min, max]. */
export const between = (rand: Random, min: number, max: number): number =>
  min + Math.floor(rand() * (max - min + 1));

/** A standard normal variate (Box-Muller). */
export function normal(rand: Random): number {
  const u = 1 - rand();
  const v = rand();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

const HEX = "0123456789abcdef";

/** A version-4-shaped UUID drawn from `rand`, so that ids are deterministic too. */
export function randomUuid(rand: Random): string {
  let out = "";
  for (let i = 0; i < 32; i += 1) {
    let digit = Math.floor(rand() * 16);
    if (i === 12) digit = 4;
    else if (i === 16) digit = 8 + (digit & 3);
    out += HEX[digit];
    if (i === 7 || i === 11 || i === 15 || i === 19) out += "-";
  }
  return out;
}

/** 24 hex digits (the shape of the old Mongo ids), for upload file names. */
export function randomHexId(rand: Random, digits = 24): string {
  let out = "";
  for (let i = 0; i < digits; i += 1) out += HEX[Math.floor(rand() * 16)];
  return out;
}
