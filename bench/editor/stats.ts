/**
 * Small statistics for the editor benchmark: a single page load on a busy 2-core machine can be
 * hundreds of milliseconds off, so figures are reported as the median of several samples.
 */

export const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

/** Nearest-rank percentile: always one of the samples, never an interpolation between two. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** The middle sample, or the mean of the two middle ones for an even count. */
export function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export interface RequestTiming {
  url: string;
  startMs: number;
  endMs: number;
  kb: number;
}

export interface MedianRequest extends RequestTiming {
  /** In how many of the loads this request was made. */
  loads: number;
}

/**
 * The median timing of each API request over several loads. A request is matched across loads
 * by its path and by how many requests to that path came before it in the same load, so a path
 * fetched twice stays two rows; rows follow the order of their first appearance.
 */
export function medianRequests(loads: RequestTiming[][]): MedianRequest[] {
  const groups = new Map<string, RequestTiming[]>();
  for (const requests of loads) {
    const seen = new Map<string, number>();
    for (const request of requests) {
      const nth = seen.get(request.url) ?? 0;
      seen.set(request.url, nth + 1);
      const key = `${nth}\u0000${request.url}`;
      const group = groups.get(key);
      if (group) group.push(request);
      else groups.set(key, [request]);
    }
  }
  return [...groups.values()].map((group) => ({
    url: group[0]!.url,
    loads: group.length,
    startMs: round(median(group.map((r) => r.startMs))),
    endMs: round(median(group.map((r) => r.endMs))),
    kb: round(median(group.map((r) => r.kb))),
  }));
}

/** A positive whole number from the environment, or the default when the variable is unset. */
export function positiveInt(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value.trim() === "") return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) {
    throw new Error(`${name} must be a positive whole number, not ${JSON.stringify(value)}`);
  }
  return parsed;
}
