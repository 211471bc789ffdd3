import { describe, expect, it } from "vitest";
import { createPriorityLimiter } from "./priority-limiter";

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe("createPriorityLimiter", () => {
  it("gives a free slot to the first lane's oldest waiter, whatever arrived before it", async () => {
    const limiter = createPriorityLimiter(1, ["sign-in", "sign-up"] as const);
    const order: string[] = [];
    const gate = deferred();
    const first = limiter.run("sign-up", async () => {
      order.push("up-0");
      await gate.promise;
    });
    const ups = [1, 2, 3, 4, 5].map((i) =>
      limiter.run("sign-up", async () => {
        order.push(`up-${i}`);
      }),
    );
    const ins = [1, 2].map((i) =>
      limiter.run("sign-in", async () => {
        order.push(`in-${i}`);
      }),
    );
    expect(limiter.waiting("sign-up")).toBe(5);
    expect(limiter.waiting("sign-in")).toBe(2);
    gate.resolve();
    await Promise.all([first, ...ups, ...ins]);
    expect(order).toEqual(["up-0", "in-1", "in-2", "up-1", "up-2", "up-3", "up-4", "up-5"]);
  });

  it("never runs more than the limit at once, and frees the slot of a failed job", async () => {
    const limiter = createPriorityLimiter(2, ["a", "b"] as const);
    let running = 0;
    let peak = 0;
    const job = (fail: boolean) => async () => {
      running += 1;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 2));
      running -= 1;
      if (fail) throw new Error("boom");
    };
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) => limiter.run(i % 2 ? "a" : "b", job(i % 3 === 0))),
    );
    expect(peak).toBe(2);
    expect(results.filter((r) => r.status === "rejected")).toHaveLength(4);
    expect(await limiter.run("b", async () => "still free")).toBe("still free");
  });

  it("refuses a limit that is not a positive integer", () => {
    expect(() => createPriorityLimiter(0, ["a"])).toThrow();
    expect(() => createPriorityLimiter(1.5, ["a"])).toThrow();
  });
});
