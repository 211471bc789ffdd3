// Worker time charged to whoever asked for it (issue 32: a budget of worker seconds per account).
// `meterWorkerTime(fn)` runs fn with a meter in its async context; the pool (pool.ts) adds to the
// meter of the context that ran each task the time from the task's start on a thread to its end,
// whether it succeeded or not, so time spent waiting in the queue is never charged.
import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";

interface Meter {
  ms: number;
}

// On globalThis under a registered symbol, not in a module variable: the pool is one per process
// (shared by Next's bundle and the front server, process-singletons.ts), and the module graph
// that made it must find the meter that a route of another graph started.
const KEY = Symbol.for("heirloom.workerTimeMeter");
const holder = globalThis as { [KEY]?: AsyncLocalStorage<Meter> };
const meters = (holder[KEY] ??= new AsyncLocalStorage<Meter>());

/** Adds `ms` of a task's time on a worker thread to the current meter, if there is one. */
export function chargeWorkerTime(ms: number): void {
  const meter = meters.getStore();
  if (meter) meter.ms += ms;
}

/**
 * Runs `fn` and reports the worker time its tasks took (`report` is called once, with the
 * milliseconds, after `fn` ends, whether it answered or threw).
 */
export async function meterWorkerTime<T>(
  fn: () => Promise<T>,
  report: (ms: number) => Promise<void>,
): Promise<T> {
  const meter: Meter = { ms: 0 };
  try {
    return await meters.run(meter, fn);
  } finally {
    await report(meter.ms);
  }
}
