import "server-only";
import { Redis } from "ioredis";
import { getEnv } from "@/lib/env";
import { logger } from "./logger";

type GlobalWithRedis = typeof globalThis & { __heirloomRedis?: Redis };

/**
 * The shared Redis client when REDIS_URL is set, else null. Commands fail fast while Redis is
 * unreachable (no unbounded offline queue), so a request errors instead of hanging.
 */
export function getRedis(): Redis | null {
  const url = getEnv().REDIS_URL;
  if (!url) return null;
  const g = globalThis as GlobalWithRedis;
  if (!g.__heirloomRedis) {
    const client = new Redis(url, {
      maxRetriesPerRequest: 1,
      enableOfflineQueue: true,
      connectTimeout: 2_000,
      lazyConnect: false,
    });
    // Without a listener an "error" event would crash the process; ioredis reconnects by itself.
    client.on("error", (error: Error) => logger.warn({ err: error }, "redis error"));
    g.__heirloomRedis = client;
  }
  return g.__heirloomRedis;
}

/** Closes the client (tests and graceful shutdown). */
export async function closeRedis(): Promise<void> {
  const g = globalThis as GlobalWithRedis;
  const client = g.__heirloomRedis;
  g.__heirloomRedis = undefined;
  if (client) await client.quit().catch(() => client.disconnect());
}
