/**
 * `npx tsx bench/legacy/run.ts`: the legacy's suggestion and drawn heir line at 10,000 Sims
 * (issue 33; goal: under 50 ms). A synthetic 10,000-Sim legacy (bench/editor/generate.ts), an heir
 * marked in every generation down one line, the laws Patriarchy, Traditional, First Born. Timed,
 * BENCH_LEGACY_ROUNDS times each (median and p95):
 *
 * - founder: counting every Sim's generation from a founder the owner picked (buildKinship with a
 *   founder, cold: once per structure change, then memoised like the root's count);
 * - suggestion: the open generation, its candidates and the laws' answer (lib/legacy/next-heir.ts);
 * - heir line: the Sims from the founder through each heir (lib/legacy/heir-line.ts) and the
 *   points the canvas draws them at (heirLinePoints);
 * - total: suggestion + heir line, what a change of the heirs costs; and with the founder's count.
 *
 * Writes bench/results/legacy.json.
 */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { heirLinePoints } from "@/components/tree-canvas/decor";
import { heirLineChain } from "@/lib/legacy/heir-line";
import { nextHeir } from "@/lib/legacy/next-heir";
import type { SuccessionLaws } from "@/lib/legacy/succession";
import { layoutTree } from "@/lib/tree/layout";
import { buildKinship } from "@/lib/tree/placements";
import { generateLegacy } from "../editor/generate";
import { median, percentile, positiveInt, round } from "../editor/stats";

const SIMS = positiveInt(process.env.BENCH_LEGACY_SIMS, 10_000, "BENCH_LEGACY_SIMS");
const ROUNDS = positiveInt(process.env.BENCH_LEGACY_ROUNDS, 30, "BENCH_LEGACY_ROUNDS");
const GOAL_MS = 50;
const LAWS: SuccessionLaws = { gender: "patriarchy", bloodline: "traditional", heir: "firstBorn" };

function time(run: () => unknown): number[] {
  const samples: number[] = [];
  for (let i = 0; i < ROUNDS + 2; i += 1) {
    const start = performance.now();
    run();
    if (i >= 2) samples.push(performance.now() - start);
  }
  return samples;
}

const summary = (samples: number[]) => ({
  medianMs: round(median(samples), 2),
  p95Ms: round(percentile(samples, 95), 2),
});

async function main() {
  const legacy = generateLegacy({ sims: SIMS });
  const people = new Map(legacy.people.map((p) => [p._id, p]));
  const root = legacy.data;
  const founder = root.person!._id;
  const kin = buildKinship(root);
  const layout = layoutTree(root, people);
  // an heir in every generation: the first child down from the founder, as long as there is one
  const heirs: string[] = [];
  for (let at = founder; ;) {
    const next = [...(kin.children.get(at) ?? [])][0];
    if (!next) break;
    heirs.push(next);
    at = next;
  }
  // the latest heir's children are the open generation's candidates
  while (heirs.length > 1 && (kin.children.get(heirs[heirs.length - 1]!)?.size ?? 0) < 2) {
    heirs.pop();
  }
  const heirMap = new Map(heirs.map((id) => [id, kin.generation.get(id)!]));
  // the founder's child as founder: a count no memo answers
  const picked = heirs[0]!;

  // two founders in turn: each count replaces the other in buildKinship's memo, so each is cold
  let turn = 0;
  const founderCount = time(() => buildKinship(root, (turn += 1) % 2 ? picked : heirs[1]!));
  const suggestion = time(() => nextHeir(kin, founder, heirs, people, LAWS, "bench"));
  const line = time(() => heirLinePoints(layout, people, heirLineChain(kin, founder, heirMap)));
  const total = suggestion.map((s, i) => s + line[i]!);
  const withFounder = total.map((s, i) => s + founderCount[i]!);
  const answer = nextHeir(kin, founder, heirs, people, LAWS, "bench")!;
  const points = heirLinePoints(layout, people, heirLineChain(kin, founder, heirMap));
  const result = {
    date: new Date().toISOString(),
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, load: os.loadavg() },
    node: process.version,
    sims: SIMS,
    placedSims: kin.placements.size,
    generations: kin.generations,
    heirs: heirs.length,
    linePoints: points.length,
    openGeneration: answer.generation,
    candidates: answer.candidates.length,
    rounds: ROUNDS,
    goalMs: GOAL_MS,
    founderCount: summary(founderCount),
    suggestion: summary(suggestion),
    heirLine: summary(line),
    suggestionAndLine: { ...summary(total), underGoal: percentile(total, 95) < GOAL_MS },
    withFounderCount: { ...summary(withFounder), underGoal: percentile(withFounder, 95) < GOAL_MS },
  };
  const out = path.join(import.meta.dirname, "../results/legacy.json");
  await fs.writeFile(out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));
}

await main();
