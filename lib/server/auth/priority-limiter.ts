import "server-only";

/**
 * Runs at most `limit` jobs at once. Waiting jobs queue by lane: a free slot goes to the oldest
 * job of the first lane (in the order given) that has one, so a burst in a later lane never
 * delays an earlier lane by more than the jobs already running. Within a lane, arrival order.
 */
export function createPriorityLimiter<Lane extends string>(limit: number, lanes: readonly Lane[]) {
  if (!Number.isInteger(limit) || limit < 1) throw new Error("limit must be a positive integer");
  let running = 0;
  const waiting = new Map<Lane, (() => void)[]>(lanes.map((lane) => [lane, []]));

  function next(): (() => void) | undefined {
    for (const lane of lanes) {
      const start = waiting.get(lane)?.shift();
      if (start) return start;
    }
    return undefined;
  }

  return {
    async run<T>(lane: Lane, job: () => Promise<T>): Promise<T> {
      if (running < limit) running += 1;
      else await new Promise<void>((resolve) => waiting.get(lane)?.push(resolve));
      try {
        return await job();
      } finally {
        // A finishing job hands its slot straight to the next waiter.
        const start = next();
        if (start) start();
        else running -= 1;
      }
    },
    /** Jobs of the lane waiting for a slot (not counting the running ones). */
    waiting(lane: Lane): number {
      return waiting.get(lane)?.length ?? 0;
    },
  };
}
