import { describe, expect, it } from "vitest";
import { median, medianRequests, percentile, positiveInt } from "./stats";

describe("median", () => {
  it("takes the middle sample of an odd count, whatever the order", () => {
    expect(median([1580, 1402, 1390, 2210, 1451])).toBe(1451);
    expect(median([7])).toBe(7);
  });

  it("averages the two middle samples of an even count", () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it("is NaN without samples and leaves its input unsorted", () => {
    expect(median([])).toBeNaN();
    const samples = [3, 1, 2];
    median(samples);
    expect(samples).toEqual([3, 1, 2]);
  });
});

describe("percentile", () => {
  it("returns a sample by nearest rank", () => {
    const frames = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(frames, 95)).toBe(95);
    expect(percentile(frames, 50)).toBe(50);
    expect(percentile([16.7], 95)).toBe(16.7);
    expect(percentile([], 95)).toBeNaN();
  });
});

describe("medianRequests", () => {
  it("matches requests by path and occurrence, in first-seen order", () => {
    const rows = medianRequests([
      [
        { url: "/api/trees/t", startMs: 250, endMs: 1200, kb: 265 },
        { url: "/api/people", startMs: 251, endMs: 1300, kb: 346 },
      ],
      [
        { url: "/api/trees/t", startMs: 260, endMs: 1100, kb: 265 },
        { url: "/api/people", startMs: 262, endMs: 1250, kb: 346 },
        { url: "/api/trees", startMs: 800, endMs: 990, kb: 0 },
      ],
      [
        { url: "/api/trees/t", startMs: 240, endMs: 1500, kb: 266 },
        { url: "/api/people", startMs: 241, endMs: 1280, kb: 346 },
        { url: "/api/people", startMs: 1400, endMs: 1500, kb: 1 },
      ],
    ]);
    expect(rows).toEqual([
      { url: "/api/trees/t", loads: 3, startMs: 250, endMs: 1200, kb: 265 },
      { url: "/api/people", loads: 3, startMs: 251, endMs: 1280, kb: 346 },
      { url: "/api/trees", loads: 1, startMs: 800, endMs: 990, kb: 0 },
      { url: "/api/people", loads: 1, startMs: 1400, endMs: 1500, kb: 1 },
    ]);
  });
});

describe("positiveInt", () => {
  it("falls back when unset and rejects what is not a positive whole number", () => {
    expect(positiveInt(undefined, 5, "X")).toBe(5);
    expect(positiveInt("", 5, "X")).toBe(5);
    expect(positiveInt("3", 5, "X")).toBe(3);
    expect(() => positiveInt("0", 5, "X")).toThrow(/X must be/);
    expect(() => positiveInt("2.5", 5, "X")).toThrow(/X must be/);
    expect(() => positiveInt("many", 5, "X")).toThrow(/X must be/);
  });
});
