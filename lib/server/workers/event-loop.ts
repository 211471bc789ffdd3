// Watches the request thread's event-loop delay, as @fastify/under-pressure does: a histogram
// sampled every 10 ms, read once a second, and a warning logged when its longest delay passes
// EVENT_LOOP_WARN_MS (something ran on the request thread that belongs in a worker; one such
// stretch in a second is a request that waited that long, which a mean or p99 would hide).
import "server-only";
import { monitorEventLoopDelay } from "node:perf_hooks";
import type { Logger } from "pino";
import { processSingleton, setProcessSingleton } from "@/lib/server/front/process-singletons";
import { EVENT_LOOP_WARN_MS } from "./limits";

/** Starts the watch once per process (later calls do nothing); answers the stop function. */
export function watchEventLoop(logger: Logger, warnMs = EVENT_LOOP_WARN_MS): () => void {
  const running = processSingleton("__heirloomEventLoopWatch");
  if (running) return running;
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const timer = setInterval(() => {
    const p99 = histogram.percentile(99) / 1e6;
    if (histogram.max / 1e6 > warnMs) {
      logger.warn(
        { eventLoopDelayMs: { p99: Math.round(p99), max: Math.round(histogram.max / 1e6) } },
        "event loop delayed: the request thread was busy",
      );
    }
    histogram.reset();
  }, 1000);
  timer.unref();
  const stop = () => {
    clearInterval(timer);
    histogram.disable();
    setProcessSingleton("__heirloomEventLoopWatch", undefined);
  };
  setProcessSingleton("__heirloomEventLoopWatch", stop);
  return stop;
}
