// The process's one pg pool for DATABASE_URL. Prisma's adapter (lib/server/db.ts) and the fast
// read path (lib/server/fast-reads.ts, loaded outside Next's bundle) share it through globalThis,
// so an instance holds at most PG_POOL_MAX connections however its requests are served.
import pg from "pg";
import { processLogger } from "./process-logger";
import { processSingleton, setProcessSingleton } from "./process-singletons";
import { PEOPLE_WORK_MEM } from "../sql/reads";

/** Connections per instance: PrismaPg's own default. */
export const PG_POOL_MAX = 10;

export function getPgPool(connectionString: string): pg.Pool {
  const current = processSingleton("__heirloomPgPool");
  // Prisma's $disconnect ends the pool (db.ts); the next user opens a new one.
  if (current && !current.ending) return current;
  // Every connection gets the work_mem the people list's sort needs (sql/reads.ts), so neither
  // caller spends a transaction on SET LOCAL.
  const pool = new pg.Pool({
    connectionString,
    max: PG_POOL_MAX,
    options: `-c work_mem=${PEOPLE_WORK_MEM}`,
  });
  // An idle connection that PostgreSQL drops (a restart) is replaced on the next checkout; with
  // no listener its error would end the process.
  pool.on("error", (error) =>
    processLogger().warn({ err: error }, "idle database connection lost"),
  );
  return setProcessSingleton("__heirloomPgPool", pool)!;
}
