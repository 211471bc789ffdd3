// Short form (CI) or long form (`npm run bench:reliability`), and where the figures go.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export const LONG = process.env.RELIABILITY_MODE === "long";
export const MODE = LONG ? "long" : "short";

const RESULTS_FILE = path.resolve(import.meta.dirname, "../../../bench/results/reliability.json");

/**
 * Prints a run's figures; the long form also writes them under `section` in
 * bench/results/reliability.json (each test file owns one section, the others are kept).
 */
export function reportFigures(section: string, figures: Record<string, unknown>): void {
  console.log(`[reliability:${MODE}] ${section}\n${JSON.stringify(figures, null, 2)}`);
  if (!LONG) return;
  let results: Record<string, unknown> = {};
  try {
    results = JSON.parse(fs.readFileSync(RESULTS_FILE, "utf8")) as Record<string, unknown>;
  } catch {
    results = {};
  }
  results.machine = { cpus: os.cpus().length, memoryGb: Math.round(os.totalmem() / 2 ** 30) };
  results[section] = { ...figures, measuredAt: new Date().toISOString() };
  fs.mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
  fs.writeFileSync(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
}
