// The process's one embedded database (PGlite), when DATABASE_URL is unset. One process may open
// a PGlite folder, and PGlite itself is one connection: the start script opens it, runs the
// migrations on it, and the server in front of Next (front-db.ts), Prisma's adapter in Next's
// bundle (lib/server/db.ts) and the backup all use this same instance through globalThis
// (process-singletons.ts). PGlite runs on a worker thread of its own (pglite-thread.ts, ADR 036),
// so that its WebAssembly work never holds the thread that serves requests; what the app holds is
// the stand-in that forwards each call there.
import { lockDataFolder } from "../data-lock";
import { PgliteThread, type EmbeddedDatabase } from "./pglite-thread";
import { processSingleton, setProcessSingleton } from "./process-singletons";

export type { EmbeddedDatabase, EmbeddedTransaction } from "./pglite-thread";
export { asAdapterClient } from "./pglite-thread";

/**
 * The process's PGlite on `dir`, opened on first use (and again after a close). The folder's
 * lock (data-lock.ts) is taken first, so a second process is refused with a sentence.
 */
export function getPglite(dir: string, options: { port?: number | null } = {}): EmbeddedDatabase {
  const current = processSingleton("__heirloomPglite");
  if (current && !current.closed) return current;
  lockDataFolder(dir, options);
  return setProcessSingleton("__heirloomPglite", new PgliteThread(dir))!;
}

/**
 * The process's open PGlite, if one was opened; undefined on PostgreSQL. For work that must run
 * in the process that holds the embedded database (a consistent backup while the server serves).
 */
export function processPglite(): EmbeddedDatabase | undefined {
  const current = processSingleton("__heirloomPglite");
  return current && !current.closed ? current : undefined;
}
