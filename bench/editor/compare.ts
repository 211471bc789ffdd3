/**
 * `npx tsx bench/editor/compare.ts --before A.json [--before …] --after B.json [--after …] --out FILE
 *   [--before-commit SHA] [--after-commit SHA]`
 *
 * Two builds of Heirloom compared on bench:editor's figures: each file is one run's
 * bench/results/editor.json from a checkout of one commit, the runs of the two commits alternated
 * on one machine. Writes, per shape and size, interactive (navigation until the root Sim's button
 * is on screen), add-child re-layout and pan p95 of each run, their medians, and after/before.
 */
import { readComparison, readJson } from "../support/compare";
import { median, round } from "./stats";

interface Goal {
  shape: string;
  sims: number;
  paintedAndInteractive: { ms: number; mainThreadCpuMs?: number };
  addChildRelayout: { layoutMs: number };
  p95Frame: { ms: number };
}
const { before, after, write } = readComparison((file) => readJson<{ goals: Goal[] }>(file).goals);

const figures = (runs: Goal[][], key: string) => {
  const goals = runs.flatMap((run) => run.filter((goal) => `${goal.shape} ${goal.sims}` === key));
  const pick = (get: (goal: Goal) => number | undefined) => {
    const values = goals.map(get).filter((value): value is number => value !== undefined);
    return { median: values.length ? round(median(values), 1) : null, perRun: values };
  };
  return {
    interactiveMs: pick((goal) => goal.paintedAndInteractive.ms),
    mainThreadCpuMs: pick((goal) => goal.paintedAndInteractive.mainThreadCpuMs),
    addChildLayoutMs: pick((goal) => goal.addChildRelayout.layoutMs),
    panP95Ms: pick((goal) => goal.p95Frame.ms),
  };
};
const ratio = (a: number | null, b: number | null) => (a !== null && b ? round(a / b, 3) : null);

const keys = [...new Set(after.flat().map((goal) => `${goal.shape} ${goal.sims}`))].filter((key) =>
  before.some((run) => run.some((goal) => `${goal.shape} ${goal.sims}` === key)),
);
const shapes = Object.fromEntries(
  keys.map((key) => {
    const b = figures(before, key);
    const a = figures(after, key);
    return [
      key,
      {
        before: b,
        after: a,
        afterOverBefore: {
          interactive: ratio(a.interactiveMs.median, b.interactiveMs.median),
          mainThreadCpu: ratio(a.mainThreadCpuMs.median, b.mainThreadCpuMs.median),
          addChildLayout: ratio(a.addChildLayoutMs.median, b.addChildLayoutMs.median),
          panP95: ratio(a.panP95Ms.median, b.panP95Ms.median),
        },
      },
    ];
  }),
);

write(
  "bench:editor, two commits alternated",
  "each run is bench:editor (5 loads a shape, each in a fresh context; medians) on its commit's own production build and database; figures here are medians over runs of those medians; afterOverBefore is after's median over before's (below 1 is faster)",
  { shapes },
);
for (const [key, value] of Object.entries(shapes)) {
  console.log(`${key.padEnd(16)} after/before ${JSON.stringify(value.afterOverBefore)}`);
}
