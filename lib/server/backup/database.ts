// The database side of a backup (ADR 033): one engine-neutral seam, and the logical dump and load
// that run through it. The same SQL runs on PostgreSQL (a pg client of the backup's own) and on
// the embedded database (the process's one PGlite, inside the server that holds it), so an
// archive made on either engine restores into either.
import type { EmbeddedDatabase, EmbeddedTransaction } from "../front/pglite";
import pg from "pg";

/** One statement at a time, inside a transaction the seam opened. */
export interface Session {
  query<Row extends Record<string, unknown>>(text: string, values?: unknown[]): Promise<Row[]>;
}

export interface BackupDatabase {
  readonly engine: "postgresql" | "pglite";
  /**
   * Runs `work` in one read-only snapshot of the whole database: REPEATABLE READ on PostgreSQL,
   * where writers go on meanwhile; on PGlite, one transaction on its one connection, which the
   * server's other statements wait for.
   */
  snapshot<T>(work: (session: Session) => Promise<T>): Promise<T>;
  /** Runs `work` in one read-write transaction: all of it is kept, or none. */
  transaction<T>(work: (session: Session) => Promise<T>): Promise<T>;
}

function pgliteSession(tx: EmbeddedTransaction): Session {
  return {
    async query<Row extends Record<string, unknown>>(text: string, values: unknown[] = []) {
      return (await tx.query<Row>(text, values)).rows;
    },
  };
}

/**
 * The embedded database through the process's PGlite (never a second instance on its folder):
 * the server's, on its own thread (ADR 036), or the one the backup and restore scripts open.
 */
export function pgliteBackupDatabase(pglite: EmbeddedDatabase): BackupDatabase {
  return {
    engine: "pglite",
    snapshot: (work) =>
      pglite.transaction(async (tx) => {
        await tx.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY");
        return work(pgliteSession(tx));
      }),
    transaction: (work) => pglite.transaction((tx) => work(pgliteSession(tx))),
  };
}

/** PostgreSQL through a connection of its own, opened for each snapshot or transaction. */
export function postgresBackupDatabase(connectionString: string): BackupDatabase {
  const run = async <T>(begin: string, work: (session: Session) => Promise<T>) => {
    const client = new pg.Client({ connectionString });
    await client.connect();
    try {
      await client.query(begin);
      const session: Session = {
        async query<Row extends Record<string, unknown>>(text: string, values: unknown[] = []) {
          return (await client.query<Row>(text, values)).rows;
        },
      };
      const result = await work(session);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    } finally {
      await client.end().catch(() => undefined);
    }
  };
  return {
    engine: "postgresql",
    snapshot: (work) => run("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", work),
    transaction: (work) => run("BEGIN", work),
  };
}

export const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Prisma's own bookkeeping: restored by replaying the archive's migrations, not as rows. */
const MIGRATIONS_TABLE = "_prisma_migrations";

/** The app's tables in an order in which each comes after every table its foreign keys name. */
export async function tablesInLoadOrder(session: Session): Promise<string[]> {
  const tables = await session.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND c.relname <> $1
     ORDER BY c.relname`,
    [MIGRATIONS_TABLE],
  );
  const edges = await session.query<{ child: string; parent: string }>(
    `SELECT ch.relname AS child, pa.relname AS parent FROM pg_constraint k
     JOIN pg_class ch ON ch.oid = k.conrelid JOIN pg_class pa ON pa.oid = k.confrelid
     JOIN pg_namespace n ON n.oid = ch.relnamespace
     WHERE k.contype = 'f' AND n.nspname = current_schema() AND ch.relname <> pa.relname`,
  );
  const names = tables.map((t) => t.name);
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (ordered.length < names.length) {
    const ready = names.filter(
      (name) =>
        !placed.has(name) &&
        edges.every((e) => e.child !== name || placed.has(e.parent) || !names.includes(e.parent)),
    );
    if (ready.length === 0) throw new Error("The tables' foreign keys form a circle");
    for (const name of ready) {
      ordered.push(name);
      placed.add(name);
    }
  }
  return ordered;
}

/** The migrations applied to the database, in the order they were applied. */
export async function appliedMigrations(session: Session): Promise<string[]> {
  const exists = await session.query<{ present: boolean }>(
    `SELECT to_regclass(quote_ident(current_schema()) || '.' || quote_ident($1)) IS NOT NULL AS present`,
    [MIGRATIONS_TABLE],
  );
  if (!exists[0]?.present) return [];
  const rows = await session.query<{ name: string }>(
    `SELECT migration_name AS name FROM ${quoteIdent(MIGRATIONS_TABLE)}
     WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL ORDER BY started_at, migration_name`,
  );
  return rows.map((r) => r.name);
}

/** The schema's sequences and where each stands (none today; kept so that a serial survives). */
export async function sequenceValues(
  session: Session,
): Promise<{ name: string; lastValue: string | null }[]> {
  const rows = await session.query<{ name: string; last: string | null }>(
    `SELECT sequencename AS name, last_value::text AS last FROM pg_sequences
     WHERE schemaname = current_schema() ORDER BY sequencename`,
  );
  return rows.map((r) => ({ name: r.name, lastValue: r.last }));
}

/** Rows fetched from the cursor at a time: bounded memory whatever the table's size. */
const FETCH_ROWS = 500;

/**
 * The columns of `table` that hold what was written, in their order, quoted: not a generated
 * column (such as "Person"."canvasJson"), which the database makes from the others on insert and
 * which an insert may not name.
 */
async function storedColumns(session: Session, table: string): Promise<string> {
  const rows = await session.query<{ name: string }>(
    `SELECT a.attname AS name FROM pg_attribute a
     WHERE a.attrelid = (quote_ident(current_schema()) || '.' || quote_ident($1))::regclass
       AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
     ORDER BY a.attnum`,
    [table],
  );
  return rows.map((row) => quoteIdent(row.name)).join(", ");
}

/** Every row of `table` (its stored columns) as one line of JSON (row_to_json), through a cursor. */
export async function* tableRows(session: Session, table: string): AsyncGenerator<string> {
  const columns = await storedColumns(session, table);
  await session.query(
    `DECLARE heirloom_backup NO SCROLL CURSOR FOR
     SELECT row_to_json(t)::text AS row FROM (SELECT ${columns} FROM ${quoteIdent(table)}) t`,
  );
  try {
    for (;;) {
      const rows = await session.query<{ row: string }>(`FETCH ${FETCH_ROWS} FROM heirloom_backup`);
      for (const { row } of rows) yield row;
      if (rows.length < FETCH_ROWS) break;
    }
  } finally {
    await session.query("CLOSE heirloom_backup");
  }
}

/** Rows sent to the database at a time, at most; fewer when their JSON passes BATCH_BYTES. */
const BATCH_ROWS = 1_000;
const BATCH_BYTES = 4 * 1024 * 1024;

/**
 * Inserts the JSON rows (as tableRows wrote them) into `table`'s stored columns, in batches;
 * answers the count. json_populate_recordset maps each key to the column of that name and type;
 * the database makes the generated columns.
 */
export async function loadRows(
  session: Session,
  table: string,
  lines: AsyncIterable<string>,
): Promise<number> {
  const columns = await storedColumns(session, table);
  let batch: string[] = [];
  let bytes = 0;
  let count = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    await session.query(
      `INSERT INTO ${quoteIdent(table)} (${columns})
       SELECT ${columns} FROM json_populate_recordset(NULL::${quoteIdent(table)}, $1::json)`,
      [`[${batch.join(",")}]`],
    );
    count += batch.length;
    batch = [];
    bytes = 0;
  };
  for await (const line of lines) {
    if (line.length === 0) continue;
    batch.push(line);
    bytes += line.length;
    if (batch.length >= BATCH_ROWS || bytes >= BATCH_BYTES) await flush();
  }
  await flush();
  return count;
}

/** Tables of the schema that hold at least one row (the migrations' own table aside). */
export async function tablesWithRows(session: Session): Promise<string[]> {
  const tables = await tablesInLoadOrder(session);
  const found: string[] = [];
  for (const table of tables) {
    const rows = await session.query(`SELECT 1 FROM ${quoteIdent(table)} LIMIT 1`);
    if (rows.length > 0) found.push(table);
  }
  return found;
}
