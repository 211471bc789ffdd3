import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { getEnv } from "@/lib/env";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { getPgPool } from "./front/pg-pool";
import { asAdapterClient, getPglite } from "./front/pglite";
import { sharedProcessSingleton } from "./front/process-singletons";

function createClient(): PrismaClient {
  const env = getEnv();
  if (env.DATABASE_URL) {
    // The process's shared pool (pg-pool.ts), which the fast read path uses too; $disconnect ends it.
    const adapter = new PrismaPg(getPgPool(env.DATABASE_URL), { disposeExternalPool: true });
    return new PrismaClient({ adapter });
  }
  // The process's one PGlite (front/pglite.ts): under `npm start` the start script opened it
  // before Next, and the server in front of Next reads through it too; under `next dev` and the
  // tests it is opened here. The client is created lazily, so `next build` (which evaluates route
  // modules in worker processes) never opens it, and the folder's lock is taken first: a second
  // process is refused with a sentence. PGlite runs on a thread of its own (ADR 036): the adapter
  // is given the main thread's stand-in, which forwards what the adapter calls.
  const pglite = getPglite(env.PGLITE_DIR, { port: env.PORT });
  return new PrismaClient({ adapter: new PrismaPGlite(asAdapterClient(pglite)) });
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
