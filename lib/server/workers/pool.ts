import "server-only";
import fs from "node:fs";
import path from "node:path";
import { MessageChannel } from "node:worker_threads";
import { Piscina } from "piscina";
import { ImportError } from "@/lib/import/types";
import { sharedProcessSingleton } from "@/lib/server/front/process-singletons";
import { ApiError } from "@/lib/server/http/errors";
import { logger } from "@/lib/server/logger";
import { watchEventLoop } from "./event-loop";
import { TASK_SECONDS, WORKER_LIMITS } from "./limits";
import { chargeWorkerTime } from "./worker-time";
import type { TaskAnswer, TaskInput, TaskMessage, TaskName, TaskOutput } from "./tasks";

/**
 * The worker entry, a file Node loads at run time: found from the project's root (the working
 * directory of `npm start`, `next dev` and vitest), never from this module's own address, which
 * in production is a chunk of Next's bundle.
 */
export function workerEntry(): string {
  return path.join(process.cwd(), "lib", "server", "workers", "worker-entry.mjs");
}

export interface WorkerPoolOptions {
  threads: number;
  heapMb: number;
  queue: number;
  /** Seconds each kind of task may run once started. */
  seconds: Record<keyof typeof TASK_SECONDS, number>;
}

const DEFAULTS: WorkerPoolOptions = {
  threads: WORKER_LIMITS.threads,
  heapMb: WORKER_LIMITS.heapMb,
  queue: WORKER_LIMITS.queue,
  seconds: TASK_SECONDS,
};

const MB = 1024 * 1024;
/** Heap bytes an export needs per byte of its JSON text, at most (measured: about 3). */
const EXPORT_HEAP_PER_TEXT_BYTE = 4;

export const WORKERS_BUSY =
  "The server is busy with other large files right now. Please try again in a minute.";
export const WORKERS_RETRY_AFTER = 30;

const KIND: Record<TaskName, keyof typeof TASK_SECONDS> = {
  import: "import",
  sims4Households: "import",
  sims4Read: "import",
  exportZip: "export",
  exportGedcom: "export",
  ogImage: "ogImage",
  publicPage: "page",
  treeBody: "structure",
  heirs: "structure",
  syncStructure: "structure",
};

/** The answer when a task passes its time (`seconds`) or memory (`heapMb`) limit. */
function limitError(name: TaskName, limit: "time" | "memory", options: WorkerPoolOptions) {
  const seconds = options.seconds[KIND[name]];
  switch (KIND[name]) {
    case "import":
      return limit === "time"
        ? new ApiError(
            422,
            `This file takes too long to read: an import may use at most ${seconds} seconds of work.`,
          )
        : new ApiError(
            413,
            `This file needs more memory to read than an import may use (${options.heapMb} MB).`,
          );
    case "export":
      return new ApiError(
        503,
        limit === "time"
          ? `This tree is too large to export: the export needed more than ${seconds} seconds of work.`
          : `This tree is too large to export: the export needed more than ${options.heapMb} MB of memory.`,
      );
    case "ogImage":
      return new ApiError(503, "The preview image of this tree could not be drawn.");
    case "page":
      return new ApiError(503, "This tree is too large to show right now.");
    case "structure":
      return new ApiError(
        503,
        limit === "time"
          ? `This tree is too large to work on: the change needed more than ${seconds} seconds of work.`
          : `This tree is too large to work on: the change needed more than ${options.heapMb} MB of memory.`,
      );
  }
}

/**
 * A piscina pool of worker threads for CPU-heavy tasks (tasks.ts), so the request thread only
 * routes (ADR 021). Each thread has a heap cap; each task a time limit that starts when a thread
 * picks it up, past which its thread is ended. Either limit, and a full queue, is an ApiError.
 */
export class WorkerPool {
  private readonly pool: Piscina<TaskMessage, unknown>;
  /**
   * Tasks running or waiting. Piscina's maxQueue does not hold tasks that carry an abort signal
   * (it keeps those in a queue of their own, unbounded), and every task here carries one, so the
   * bound is kept here: threads plus `queue`.
   */
  private outstanding = 0;

  constructor(readonly options: WorkerPoolOptions = DEFAULTS) {
    const filename = workerEntry();
    if (!fs.existsSync(filename)) {
      throw new Error(`The worker entry ${filename} is missing: start the server from its folder.`);
    }
    this.pool = new Piscina({
      filename,
      // Set, not inherited: the same in every host (tsx, next, vitest). See worker-entry.mjs.
      execArgv: ["--conditions=react-server"],
      minThreads: Math.min(1, options.threads),
      maxThreads: options.threads,
      maxQueue: options.queue,
      concurrentTasksPerWorker: 1,
      idleTimeout: 10 * 60_000,
      niceIncrement: WORKER_LIMITS.nice,
      resourceLimits: {
        maxOldGenerationSizeMb: options.heapMb,
        maxYoungGenerationSizeMb: Math.min(WORKER_LIMITS.youngMb, options.heapMb),
      },
    });
    this.pool.on("error", (error: unknown) => logger.error({ err: error }, "worker pool error"));
  }

  /** Threads running and tasks waiting, for tests and logs. */
  get stats() {
    return { threads: this.pool.threads.length, queued: this.pool.queueSize };
  }

  /** Runs task `name` on `input` in a worker thread; `transfer` moves buffers instead of copying. */
  async run<K extends TaskName>(
    name: K,
    input: TaskInput<K>,
    transfer: ArrayBuffer[] = [],
  ): Promise<TaskOutput<K>> {
    // An export parses its JSON text in one JSON.parse, a V8 builtin that does not stop at the
    // thread's heap cap: past it V8 aborts the whole process, not the thread. So text that could
    // not fit is refused before it is sent (a heap holds the parsed objects at several times the
    // text's size).
    if (KIND[name] === "export") {
      const { tree, people } = input as { tree: string; people: string };
      if ((tree.length + people.length) * EXPORT_HEAP_PER_TEXT_BYTE > this.options.heapMb * MB) {
        throw limitError(name, "memory", this.options);
      }
    }
    if (this.outstanding >= this.options.threads + this.options.queue) {
      throw new ApiError(503, WORKERS_BUSY, { "Retry-After": String(WORKERS_RETRY_AFTER) });
    }
    this.outstanding += 1;
    try {
      return await this.runCounted(name, input, transfer);
    } finally {
      this.outstanding -= 1;
    }
  }

  private async runCounted<K extends TaskName>(
    name: K,
    input: TaskInput<K>,
    transfer: ArrayBuffer[],
  ): Promise<TaskOutput<K>> {
    const { port1, port2 } = new MessageChannel();
    const abort = new AbortController();
    let timedOut = false;
    let timer: NodeJS.Timeout | undefined;
    let startedAt: number | undefined;
    port1.once("message", () => {
      startedAt = performance.now();
      timer = setTimeout(() => {
        timedOut = true;
        abort.abort();
      }, this.options.seconds[KIND[name]] * 1000);
    });
    port1.unref();
    const started = performance.now();
    let answer: TaskAnswer<TaskOutput<K>> | undefined;
    try {
      answer = (await this.pool.run(
        { name, input, started: port2 },
        { transferList: [port2, ...transfer], signal: abort.signal },
      )) as TaskAnswer<TaskOutput<K>>;
    } catch (error) {
      throw this.failure(name, error, timedOut);
    } finally {
      clearTimeout(timer);
      port1.close();
      // The task's time on its thread, charged to the caller's meter (worker-time.ts; issue 32):
      // as the thread measured it when it answered (its "started" message can arrive after its
      // answer), else from that message to now (a task that threw or was stopped).
      if (answer) chargeWorkerTime(answer.ms);
      else if (startedAt !== undefined) chargeWorkerTime(performance.now() - startedAt);
    }
    logger.debug({ task: name, ms: Math.round(performance.now() - started) }, "worker task");
    if (!answer.ok) throw new ImportError(answer.importError);
    return answer.value;
  }

  private failure(name: TaskName, error: unknown, timedOut: boolean): unknown {
    const code = (error as { code?: unknown } | null)?.code;
    const message = error instanceof Error ? error.message : "";
    if (timedOut) {
      logger.warn({ task: name }, "worker task over its time limit");
      return limitError(name, "time", this.options);
    }
    if (code === "ERR_WORKER_OUT_OF_MEMORY") {
      logger.warn({ task: name }, "worker task over its memory limit");
      return limitError(name, "memory", this.options);
    }
    if (message === "Task queue is at limit") {
      return new ApiError(503, WORKERS_BUSY, { "Retry-After": String(WORKERS_RETRY_AFTER) });
    }
    return error;
  }

  /** Ends the threads (tests; a server's threads end with its process). */
  async close(): Promise<void> {
    await this.pool.destroy();
  }
}

/** The process's pool, made on first use and shared by every module graph (process-singletons). */
export function workerPool(): WorkerPool {
  return sharedProcessSingleton("__heirloomWorkerPool", () => {
    watchEventLoop(logger);
    return new WorkerPool();
  }) as WorkerPool;
}

/** Runs task `name` in the process's pool (see WorkerPool.run). */
export function runInWorker<K extends TaskName>(
  name: K,
  input: TaskInput<K>,
  transfer?: ArrayBuffer[],
): Promise<TaskOutput<K>> {
  return workerPool().run(name, input, transfer);
}
