import { describe, expect, it } from "vitest";
import { PEOPLE_BATCH, peopleBatches } from "./insert-people";

const row = (i: number, bioChars = 0) => ({ id: `p${i}`, bio: "x".repeat(bioChars) });

describe("peopleBatches", () => {
  it("keeps every row once, in order, as JSON arrays", () => {
    const rows = Array.from({ length: 2_345 }, (_, i) => row(i));
    const batches = peopleBatches(rows);
    expect(batches.flatMap((batch) => JSON.parse(batch) as unknown[])).toEqual(rows);
    expect(peopleBatches([])).toEqual([]);
  });

  it("closes a batch at PEOPLE_BATCH.rows rows", () => {
    const batches = peopleBatches(Array.from({ length: 2_345 }, (_, i) => row(i)));
    expect(batches.map((batch) => (JSON.parse(batch) as unknown[]).length)).toEqual([
      PEOPLE_BATCH.rows,
      PEOPLE_BATCH.rows,
      345,
    ]);
  });

  it("closes a batch before it passes PEOPLE_BATCH.chars, so a statement stays short on PGlite", () => {
    // 100,000 Sims with 40-line notes made 4.6 MB statements in batches of 5,000 rows.
    const rows = Array.from({ length: 600 }, (_, i) => row(i, 1_000));
    const batches = peopleBatches(rows);
    expect(batches.length).toBeGreaterThan(2);
    for (const batch of batches) expect(batch.length).toBeLessThanOrEqual(PEOPLE_BATCH.chars);
    expect(batches.flatMap((batch) => JSON.parse(batch) as unknown[])).toEqual(rows);
  });

  it("puts a row longer than the budget in a batch of its own", () => {
    const rows = [row(0), row(1, PEOPLE_BATCH.chars * 2), row(2)];
    expect(peopleBatches(rows).map((batch) => (JSON.parse(batch) as unknown[]).length)).toEqual([
      1, 1, 1,
    ]);
  });
});
