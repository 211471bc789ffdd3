import { describe, expect, it } from "vitest";
import { createLimiter } from "./concurrency";

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe("createLimiter", () => {
  it("never runs more than its limit at once, and starts jobs in arrival order", async () => {
    const run = createLimiter(2);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const job = (id: number) => async () => {
      started.push(id);
      running += 1;
      most = Math.max(most, running);
      await tick();
      running -= 1;
      return id;
    };
    const results = await Promise.all(Array.from({ length: 9 }, (_, i) => run(job(i))));
    expect(results).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(most).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it("frees the slot of a job that fails", async () => {
    const run = createLimiter(1);
    await expect(run(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    await expect(run(async () => "next")).resolves.toBe("next");
  });

  it("refuses a limit below one", () => {
    expect(() => createLimiter(0)).toThrow();
  });
});
