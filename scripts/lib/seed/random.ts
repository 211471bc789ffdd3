// Seedable randomness for the scale seed: the same seed gives the same rows, ids included.

import type { Random } from "../legacy/generate";

// The PRNG and pick are the synthetic legacies' (one mulberry32 for the seed and the benches).
export { type Random, createRandom, pick } from "../legacy/generate";

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
