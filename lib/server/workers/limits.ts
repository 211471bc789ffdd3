// The worker pool's budgets (ADR 021): threads, heap, queue, and the time each kind of task may
// run. In one place so that docs/reference.md and the tests read the same figures.
import "server-only";
import os from "node:os";

export const WORKER_LIMITS = {
  /**
   * Threads: one fewer than the cores (at least one), so the request thread always has a core of
   * its own; on a 2-core machine one worker. The threads also run at a lower priority (nice 10).
   */
  threads: Math.max(1, Math.min(4, os.availableParallelism() - 1)),
  /** V8 old-generation heap of each thread: a task past it ends that thread, not the server. */
  heapMb: 1536,
  /** Young generation of each thread (V8's default for a heap this size would be larger). */
  youngMb: 64,
  /** Tasks waiting for a thread; one more is answered 503 with Retry-After. */
  queue: 32,
  /** Nice increment of the worker threads (Linux: per thread). */
  nice: 10,
} as const;

/**
 * Seconds each kind of task may run once a thread has started it (time in the queue is free).
 * The largest GEDCOM an import accepts (5,000,000 lines) took 70 s on the shared 2-core machine
 * while others worked on it.
 */
export const TASK_SECONDS = {
  import: 300,
  export: 300,
  ogImage: 60,
  /** A public page's model of a large publication (lib/public-tree/page-model.ts). */
  page: 60,
  /**
   * A large tree's whole-body save, heirs check or household sync (structure-work.ts): seconds
   * for the largest tree the limits allow (50,000 nodes, 16 MB).
   */
  structure: 60,
} as const;

/** Delay of the request thread's event loop above which a line is logged (as under-pressure). */
export const EVENT_LOOP_WARN_MS = 100;
