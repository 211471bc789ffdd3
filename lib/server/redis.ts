import "server-only";
import { Redis } from "ioredis";
import { getEnv } from "@/lib/env";
import { processSingleton, setProcessSingleton } from "./front/process-singletons";
import { logger } from "./logger";

/**
 * The shared Redis client when REDIS_URL is set, else null. Commands fail fast while Redis is
 * unreachable (no unbounded offline queue), so a request errors instead of hanging.
 */
export function getRedis(): Redis | null {
  const url = getEnv().REDIS_URL;
  if (!url) return null;
  let client = processSingleton("__heirloomRedis");
  if (!client) {
    client = new Redis(url, {
      maxRetriesPerRequest: 1,
      enableOfflineQueue: true,
      connectTimeout: 2_000,
      lazyConnect: false,
    });
    // Without a listener an "error" event would crash the process; ioredis reconnects by itself.
    client.on("error", (error: Error) => logger.warn({ err: error }, "redis error"));
    setProcessSingleton("__heirloomRedis", client);
  }
  return client;
}

/** Closes the client (tests and graceful shutdown). */
export async function closeRedis(): Promise<void> {
  const client = processSingleton("__heirloomRedis");
  setProcessSingleton("__heirloomRedis", undefined);
  if (client) await client.quit().catch(() => client.disconnect());
}
