// Next calls register() once when its server starts (https://nextjs.org/docs/app/guides/instrumentation).
// It starts the event-loop delay watch (lib/server/workers/event-loop.ts), so a busy request
// thread is logged from the first request on, in Node's runtime only.
export async function register(): Promise<void> {
  // eslint-disable-next-line no-restricted-properties -- set by Next itself, before lib/env.ts applies
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { watchEventLoop } = await import("@/lib/server/workers/event-loop");
  const { logger } = await import("@/lib/server/logger");
  watchEventLoop(logger);
  // import code warmed at start, off the first import's path (issue 32; lib/server/import/warm.ts)
  const { warmImports } = await import("@/lib/server/import/warm");
  void warmImports();
}
