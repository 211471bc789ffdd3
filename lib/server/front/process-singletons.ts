// The process-wide singletons, all in one place, each with the reason it lives on globalThis.
//
// One Node process holds two module graphs: Next's server bundle (pages, route handlers and the
// services under lib/server/) and the server in front of it (lib/server/front/, loaded by tsx
// outside the bundle). A module imported by both is evaluated twice, once per graph, so a plain
// module-level variable would exist twice; and `next dev` re-evaluates changed modules, which
// would open a new connection on every edit. What must exist once per process is kept here, on
// globalThis, under the names below. Loaded by both graphs: imports only types.
//
// It imports nothing from the modules that keep their singletons here (a type import would be a
// circle in the import graph too: see ProcessViewCounter).
import type { PrismaClient } from "@/lib/generated/prisma/client";
import type { Redis } from "ioredis";
import type pg from "pg";
import type { Logger } from "pino";
import type { EmbeddedDatabase } from "./pglite-thread";

/** What the process's view counter offers (published/view-counter.ts implements it). */
export interface ProcessViewCounter {
  /** One view of a tree; `reader` (an opaque key, see view-counter.ts) counts once per window. */
  count(treeId: string, reader?: string): void;
  flush(): Promise<void>;
  close(): Promise<void>;
}

interface ProcessSingletons {
  /**
   * The one Prisma client (lib/server/db.ts). Kept across `next dev` reloads (each would open a
   * pool, or a second PGlite on a folder only one may open), and read by the front server's
   * clean stop, which cannot import the bundle's db module, to close the database.
   */
  __heirloomDb: PrismaClient;
  /**
   * The pg pool for DATABASE_URL (front/pg-pool.ts): Prisma's adapter and the fast reads share
   * it, so an instance holds at most PG_POOL_MAX connections however a request is served.
   */
  __heirloomPgPool: pg.Pool;
  /**
   * The embedded database when DATABASE_URL is unset (front/pglite.ts): one PGlite per process
   * and per folder, opened by the start script (or by db.ts's first use under `next dev` and the
   * tests), shared by Prisma's adapter in the bundle, the server in front and the backup. It runs
   * on a thread of its own: this is the main thread's stand-in for it (pglite-thread.ts, ADR 036).
   */
  __heirloomPglite: EmbeddedDatabase;
  /**
   * The pino logger (front/process-logger.ts): one destination for both graphs, so their
   * buffered lines never interleave mid-line.
   */
  __heirloomLogger: Logger;
  /** The Redis client when REDIS_URL is set (lib/server/redis.ts): one connection per process. */
  __heirloomRedis: Redis | undefined;
  /**
   * Public page views counted in memory (published/view-counter.ts): the front server and Next's
   * page both count, and the clean stop writes what is left, so all three must see one counter.
   */
  __heirloomViews: ProcessViewCounter;
  /**
   * Listeners told when this process publishes or unpublishes (published/snapshot-url.ts): the
   * publish service runs in the bundle, the kept public pages in front of it.
   */
  __heirloomPublicationListeners: Set<(treeId: string) => void>;
  /**
   * The data folders this process has locked (lib/server/data-lock.ts), taken by the start
   * script and again by db.ts in the bundle; one exit handler removes each lock file once.
   */
  __heirloomDataLocks: Map<string, { holds: number; content: string }>;
  /** The worker pool (lib/server/workers/pool.ts): one set of threads however many graphs ask. */
  __heirloomWorkerPool: { close(): Promise<void> };
  /** Stops the event-loop delay watch (lib/server/workers/event-loop.ts), started once. */
  __heirloomEventLoopWatch: () => void;
}

type Name = keyof ProcessSingletons;
const slots = globalThis as unknown as Partial<ProcessSingletons>;

/** The process's `name`, if it was made. */
export function processSingleton<K extends Name>(name: K): ProcessSingletons[K] | undefined {
  return slots[name];
}

/** Keeps `value` as the process's `name` (undefined forgets it). */
export function setProcessSingleton<K extends Name>(
  name: K,
  value: ProcessSingletons[K] | undefined,
): ProcessSingletons[K] | undefined {
  slots[name] = value;
  return value;
}

/** The process's `name`, made with `create` by whichever graph asks first. */
export function sharedProcessSingleton<K extends Name>(
  name: K,
  create: () => ProcessSingletons[K],
): ProcessSingletons[K] {
  const made = slots[name] ?? create();
  slots[name] = made;
  return made;
}
