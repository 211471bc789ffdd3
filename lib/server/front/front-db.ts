// The one data-access seam of the server in front of Next (ADR 023): the statements it runs
// (lib/server/sql/reads.ts, the view counts' batch) go through `query`, which both engines
// implement, so the public pages, the fast reads and the batched view counts are one code path on
// PostgreSQL and on the embedded default.
import type pg from "pg";
import type { EmbeddedDatabase } from "./pglite-thread";

export interface FrontDb {
  /** Which engine answers: for logs and the few differences ADR 023 names. */
  readonly engine: "postgresql" | "pglite";
  /**
   * Runs one statement with positional parameters and answers its rows. `name` names it as a
   * prepared statement where the engine keeps those per connection (PostgreSQL).
   */
  query<Row extends Record<string, unknown>>(
    name: string,
    text: string,
    values: readonly unknown[],
  ): Promise<Row[]>;
}

/** PostgreSQL through the process's pool (pg-pool.ts): named statements, planned once. */
export function pgFrontDb(pool: pg.Pool): FrontDb {
  return {
    engine: "postgresql",
    async query<Row extends Record<string, unknown>>(
      name: string,
      text: string,
      values: readonly unknown[],
    ) {
      const result = await pool.query<Row>({ name: `heirloom_${name}`, text, values: [...values] });
      return result.rows;
    },
  };
}

/**
 * The embedded database through the process's one PGlite (pglite.ts), the very instance Prisma's
 * adapter uses: PGlite runs one statement at a time, and a Prisma transaction holds it until it
 * ends, so a read here waits for it as a second pool connection would wait for its locks. The
 * statement runs on the database's own thread (ADR 036); the rows are parsed there too.
 */
export function pgliteFrontDb(pglite: EmbeddedDatabase): FrontDb {
  return {
    engine: "pglite",
    async query<Row extends Record<string, unknown>>(
      _name: string,
      text: string,
      values: readonly unknown[],
    ) {
      const result = await pglite.query<Row>(text, [...values]);
      return result.rows;
    },
  };
}
