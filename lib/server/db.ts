import "server-only";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { getEnv } from "@/lib/env";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { lockDataFolder } from "./data-lock";
import { getPgPool } from "./front/pg-pool";
import { sharedProcessSingleton } from "./front/process-singletons";

function createClient(): PrismaClient {
  const env = getEnv();
  if (env.DATABASE_URL) {
    // The process's shared pool (pg-pool.ts), which the fast read path uses too; $disconnect ends it.
    const adapter = new PrismaPg(getPgPool(env.DATABASE_URL), { disposeExternalPool: true });
    return new PrismaClient({ adapter });
  }
  // One process at a time may open a PGlite directory; the client is created lazily, so
  // `next build` (which evaluates route modules in worker processes) never opens it, and the
  // folder's lock (data-lock.ts) is taken first: a second process is refused with a sentence.
  lockDataFolder(env.PGLITE_DIR, { port: env.PORT });
  return new PrismaClient({ adapter: new PrismaPGlite(new PGlite(env.PGLITE_DIR)) });
}

/** The one Prisma client, created on first use and kept across hot reloads. */
export function getDb(): PrismaClient {
  return sharedProcessSingleton("__heirloomDb", createClient);
}

/** The Prisma client; a lazy proxy so that importing this module opens no connection. */
export const db: PrismaClient = new Proxy({} as PrismaClient, {
  get(_target, property) {
    const client = getDb();
    const value: unknown = Reflect.get(client, property, client);
    return typeof value === "function"
      ? (value as (...a: unknown[]) => unknown).bind(client)
      : value;
  },
});

export { Prisma } from "@/lib/generated/prisma/client";
