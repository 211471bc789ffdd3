// The process's one pino logger. Next's server bundle (through lib/server/logger.ts) and the fast
// read path in scripts/server.ts (outside the bundle) load this module separately; keeping the
// logger on globalThis gives both one destination, so their lines never interleave mid-line.
import pino, { type Logger } from "pino";
import { getEnv } from "@/lib/env";
import { sharedProcessSingleton } from "./process-singletons";

function createLogger(): Logger {
  /**
   * Lines are written asynchronously and in batches: a write to stdout is a system call, which
   * cost about a tenth of a millisecond of CPU per request line on a loaded machine, and a sync
   * write blocks the event loop when stdout (a pipe to a log collector) is full. Lines wait until
   * 4 KB have gathered or at most a second; pino writes what is left when the process exits.
   */
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  setInterval(() => {
    try {
      destination.flush();
    } catch {
      // destroyed: the process is exiting
    }
  }, 1000).unref();
  const env = getEnv();
  return pino(
    { level: env.NODE_ENV === "test" ? "silent" : env.LOG_LEVEL, base: undefined },
    destination,
  );
}

/** Structured JSON logs on stdout. */
export function processLogger(): Logger {
  return sharedProcessSingleton("__heirloomLogger", createLogger);
}
