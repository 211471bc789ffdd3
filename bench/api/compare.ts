/**
 * `npx tsx bench/api/compare.ts --before A.json [--before …] --after B.json [--after …] --out FILE
 *   [--before-commit SHA] [--after-commit SHA]`
 *
 * Two builds of Heirloom compared on bench:api's figures: each file is one `bench:api` run's output
 * (bench/results/api.json of a checkout of one commit, or `--out` of another), the runs of the two
 * commits alternated on one machine so that a change in its load falls on both. Writes, per read
 * and target (app, via Next's router, the bare baseline), the requests a second, p50 and p99 of
 * each run, their medians, and after/before of the medians.
 */
import { median, round } from "../editor/stats";
import { readComparison, readJson } from "../support/compare";

interface Figures {
  rps: number;
  p50: number;
  p99: number;
}
type Run = {
  startedAt?: string;
  scenarios: Record<string, Partial<Record<"app" | "viaNextRouter" | "baseline", Figures | null>>>;
};
const { before, after, write } = readComparison((file) => readJson<Run>(file));
const TARGETS = ["app", "viaNextRouter", "baseline"] as const;

const reads = Object.keys(after[0]!.scenarios).filter((name) =>
  before.every((run) => run.scenarios[name]),
);
const summary = (runs: Run[], name: string, target: (typeof TARGETS)[number]) => {
  const figures = runs.map((run) => run.scenarios[name]?.[target]).filter((f) => f != null);
  if (figures.length === 0) return null;
  return {
    rps: round(median(figures.map((f) => f.rps)), 1),
    p50: median(figures.map((f) => f.p50)),
    p99: median(figures.map((f) => f.p99)),
    rpsPerRun: figures.map((f) => f.rps),
  };
};

const result: Record<string, Record<string, unknown>> = {};
for (const name of reads) {
  result[name] = {};
  for (const target of TARGETS) {
    const b = summary(before, name, target);
    const a = summary(after, name, target);
    if (!b || !a) continue;
    result[name][target] = {
      before: b,
      after: a,
      afterOverBefore: { rps: round(a.rps / b.rps, 3), p50: round(a.p50 / b.p50, 3) },
    };
  }
}

write(
  "bench:api, two commits alternated",
  "each run is bench:api --only readTree,people,published,avatar (50 connections, 10 s after a 3 s warm-up, per target) on its commit's own production build and its own copy of the same seeded 22,000-user database; figures are medians over runs; afterOverBefore is after's median over before's",
  { reads: result },
);
for (const [name, targets] of Object.entries(result)) {
  for (const [target, value] of Object.entries(targets)) {
    const { afterOverBefore } = value as { afterOverBefore: { rps: number } };
    console.log(`${name.padEnd(10)} ${target.padEnd(14)} after/before rps ${afterOverBefore.rps}`);
  }
}
