/**
 * What the two-commit comparisons (bench/api/compare.ts, bench/editor/compare.ts) share: their
 * arguments (`--before FILE…`, `--after FILE…`, `--out FILE`, `--before-commit`, `--after-commit`)
 * and the record they write, with the commits, the number of runs and the machine.
 */
import fs from "node:fs";
import os from "node:os";
import { parseArgs } from "node:util";
import { round } from "../editor/stats";

export interface Comparison<Run> {
  before: Run[];
  after: Run[];
  /** Writes the record: `benchmark`, both commits and run counts, the machine, `method`, `body`. */
  write: (benchmark: string, method: string, body: Record<string, unknown>) => void;
}

export function readComparison<Run>(read: (file: string) => Run): Comparison<Run> {
  const { values: args } = parseArgs({
    options: {
      before: { type: "string", multiple: true },
      after: { type: "string", multiple: true },
      out: { type: "string" },
      "before-commit": { type: "string" },
      "after-commit": { type: "string" },
    },
  });
  const { before, after, out } = args;
  if (!before?.length || !after?.length || !out) {
    console.error("Pass --before FILE and --after FILE (once or more each) and --out FILE");
    process.exit(2);
  }
  return {
    before: before.map(read),
    after: after.map(read),
    write(benchmark, method, body) {
      const record = {
        benchmark,
        before: { commit: args["before-commit"] ?? null, runs: before.length },
        after: { commit: args["after-commit"] ?? null, runs: after.length },
        machine: {
          cores: os.cpus().length,
          loadAverageAtWrite: os.loadavg().map((load) => round(load, 2)),
        },
        method,
        ...body,
      };
      fs.writeFileSync(out, `${JSON.stringify(record, null, 2)}\n`);
      console.log(`Wrote ${out}`);
    },
  };
}

export const readJson = <T>(file: string): T => JSON.parse(fs.readFileSync(file, "utf8")) as T;
