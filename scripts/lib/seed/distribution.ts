// How big the seeded trees are and who owns them. The Plum Tree's data is gone, so the shape is a
// guess: most legacies are small (a founder, a few heirs and their families), a few players keep
// enormous ones. A log-normal body with a Pareto tail gives that long tail.
import { type Random, createRandom, normal } from "./random";

export interface SizeModel {
  /** Median Sims of the log-normal body. */
  median: number;
  /** Spread (sigma of ln size) of the body. */
  sigma: number;
  /** Share of trees drawn from the Pareto tail instead. */
  tailShare: number;
  /** Where the tail starts, in Sims. */
  tailStart: number;
  /** Pareto shape; below 1.5 the tail is heavy. */
  tailAlpha: number;
  min: number;
  max: number;
}

export const DEFAULT_SIZE_MODEL: SizeModel = {
  median: 14,
  sigma: 0.85,
  tailShare: 0.01,
  tailStart: 100,
  tailAlpha: 1.1,
  min: 5,
  max: 10_000,
};

/** The number of Sims in one tree. */
export function drawTreeSize(rand: Random, model: SizeModel = DEFAULT_SIZE_MODEL): number {
  const raw =
    rand() < model.tailShare
      ? model.tailStart / Math.pow(1 - rand(), 1 / model.tailAlpha)
      : model.median * Math.exp(model.sigma * normal(rand));
  return Math.min(model.max, Math.max(model.min, Math.round(raw)));
}

/** The sizes the trees of a seed get (the seed draws them from the same stream). */
export function plannedSizes(trees: number, seed: number, model = DEFAULT_SIZE_MODEL): number[] {
  const rand = createRandom(seed);
  return Array.from({ length: trees }, () => drawTreeSize(rand, model));
}

/**
 * The owner of a tree, as an index into the users. Skewed towards low indexes (u^1.6), so a few
 * players own dozens of trees, most own one to three, and about a fifth own none.
 */
export function drawOwner(rand: Random, users: number): number {
  return Math.min(users - 1, Math.floor(users * Math.pow(rand(), 1.6)));
}

/**
 * Which trees are published: a fixed share (the Plum Tree had 70,000 published of 500,000, 14%),
 * spread evenly so that any prefix of the trees has the same share.
 */
export const PUBLISHED_SHARE = 70_000 / 500_000;
export const isPublished = (treeIndex: number, share = PUBLISHED_SHARE): boolean =>
  Math.floor((treeIndex + 1) * share) > Math.floor(treeIndex * share);

export interface SizeSummary {
  count: number;
  total: number;
  mean: number;
  min: number;
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  max: number;
  /** Trees per size bucket, e.g. "5-9": 1234. */
  buckets: Record<string, number>;
}

const BUCKETS: [string, number][] = [
  ["5-9", 9],
  ["10-19", 19],
  ["20-49", 49],
  ["50-99", 99],
  ["100-299", 299],
  ["300-999", 999],
  ["1000-2999", 2999],
  ["3000+", Infinity],
];

export function summarizeSizes(sizes: readonly number[]): SizeSummary {
  const sorted = [...sizes].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
  const total = sorted.reduce((sum, size) => sum + size, 0);
  const buckets: Record<string, number> = Object.fromEntries(BUCKETS.map(([name]) => [name, 0]));
  for (const size of sorted) {
    const [name] = BUCKETS.find(([, upTo]) => size <= upTo) ?? BUCKETS[BUCKETS.length - 1]!;
    buckets[name] = (buckets[name] ?? 0) + 1;
  }
  return {
    count: sorted.length,
    total,
    mean: sorted.length ? Math.round((total / sorted.length) * 10) / 10 : 0,
    min: sorted[0] ?? 0,
    p50: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    p999: at(0.999),
    max: sorted[sorted.length - 1] ?? 0,
    buckets,
  };
}

/**
 * Trees per user in buckets, plus the most any user has. One pass, no spread: `Math.max(...counts)`
 * passes every count as an argument and overflows the call stack at full scale (220,000 users).
 */
export function bucketTreesPerUser(counts: readonly number[]): Record<string, number> {
  const out: Record<string, number> = { "0": 0, "1": 0, "2-3": 0, "4-9": 0, "10-49": 0, "50+": 0 };
  let max = 0;
  for (const n of counts) {
    if (n > max) max = n;
    const key =
      n === 0 ? "0" : n === 1 ? "1" : n <= 3 ? "2-3" : n <= 9 ? "4-9" : n <= 49 ? "10-49" : "50+";
    out[key] = (out[key] ?? 0) + 1;
  }
  out.max = max;
  return out;
}
