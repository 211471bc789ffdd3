// Turning autocannon results into the figures of bench/results/api.json, and judging the goals.

/** The parts of an autocannon result the report reads. */
export interface CannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number; max: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  duration: number;
  statusCodeStats?: Record<string, { count: number }>;
}

export interface Figures {
  /** Completed requests per second over the measured window. */
  rps: number;
  p50: number;
  p99: number;
  meanMs: number;
  maxMs: number;
  requests: number;
  /** Connection errors and timeouts. */
  errors: number;
  /** Non-2xx answers, the expected 409s of an autosave included. */
  non2xx: number;
  /** 409 answers (a save refused because the tree moved on). */
  conflicts: number;
  statusCodes: Record<string, number>;
}

const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

export function toFigures(result: CannonResult): Figures {
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, Number(count)]),
  );
  return {
    rps: round(result.requests.total / Math.max(result.duration, 0.001)),
    p50: result.latency.p50,
    p99: result.latency.p99,
    meanMs: round(result.latency.average, 2),
    maxMs: result.latency.max,
    requests: result.requests.total,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    conflicts: statusCodes["409"] ?? 0,
    statusCodes,
  };
}

export type ScenarioKind = "read" | "autosave" | "signin";

export interface GoalCheck {
  goal: string;
  value: number | null;
  met: boolean;
}

/** Failures that count as errors: connection errors, and non-2xx except an autosave's 409s. */
export const failures = (figures: Figures, kind: ScenarioKind): number =>
  figures.errors + figures.non2xx - (kind === "autosave" ? figures.conflicts : 0);

/**
 * The goals for one scenario: p99 under 50 ms for reads and 100 ms for the 1,000-node
 * autosave, no errors, and at least half the baseline's throughput on each read.
 */
export function checkGoals(
  kind: ScenarioKind,
  app: Figures,
  baseline: Figures | null,
): GoalCheck[] {
  const checks: GoalCheck[] = [];
  if (kind === "read") checks.push({ goal: "p99 < 50 ms", value: app.p99, met: app.p99 < 50 });
  if (kind === "autosave") {
    checks.push({ goal: "p99 < 100 ms", value: app.p99, met: app.p99 < 100 });
  }
  const errors = failures(app, kind);
  checks.push({ goal: "no errors", value: errors, met: errors === 0 && app.requests > 0 });
  if (kind === "read") {
    const ratio = baseline && baseline.rps > 0 ? round(app.rps / baseline.rps, 3) : null;
    checks.push({
      goal: ">= 0.5x baseline throughput",
      value: ratio,
      met: ratio !== null && ratio >= 0.5,
    });
  }
  return checks;
}

export const ratio = (app: number, baseline: number): number | null =>
  baseline > 0 ? round(app / baseline, 3) : null;
