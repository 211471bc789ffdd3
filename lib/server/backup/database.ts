// The database side of a backup (ADR 033): one engine-neutral seam, and the logical dump and load
// that run through it. The same SQL runs on PostgreSQL (a pg client of the backup's own) and on
// the embedded database (the process's one PGlite, inside the server that holds it), so an
// archive made on either engine restores into either.
import { createHash } from "node:crypto";
import type { EmbeddedDatabase, EmbeddedTransaction } from "../front/pglite";
import pg from "pg";

/** One statement at a time, inside a transaction the seam opened. */
export interface Session {
  query<Row extends Record<string, unknown>>(text: string, values?: unknown[]): Promise<Row[]>;
  /** Runs a script of several statements (a migration), without parameters. */
  exec(script: string): Promise<void>;
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
    async exec(script: string) {
      await tx.exec(script);
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
        async exec(script: string) {
          // Without values pg sends the simple query protocol, which runs several statements.
          await client.query(script);
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

/**
 * The app's tables (the migrations' own aside), each with the tables its foreign keys name
 * (itself left out: a row may name another row of its own table only when loaded in one batch).
 */
export async function foreignKeyParents(session: Session): Promise<Map<string, Set<string>>> {
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
  const parents = new Map(tables.map((t) => [t.name, new Set<string>()]));
  for (const edge of edges) {
    if (parents.has(edge.parent)) parents.get(edge.child)?.add(edge.parent);
  }
  return parents;
}

/** The tables in an order in which each comes after every table its foreign keys name. */
export function loadOrder(parents: Map<string, Set<string>>): string[] {
  const ordered: string[] = [];
  const placed = new Set<string>();
  while (ordered.length < parents.size) {
    const ready = [...parents]
      .filter(([name, of]) => !placed.has(name) && [...of].every((parent) => placed.has(parent)))
      .map(([name]) => name);
    if (ready.length === 0) throw new Error("The tables' foreign keys form a circle");
    for (const name of ready) {
      ordered.push(name);
      placed.add(name);
    }
  }
  return ordered;
}

/** The app's tables in an order in which each comes after every table its foreign keys name. */
export async function tablesInLoadOrder(session: Session): Promise<string[]> {
  return loadOrder(await foreignKeyParents(session));
}

/**
 * The key of the advisory lock a migration holds (scripts/lib/schema-engine.ts takes the same one
 * for the whole of its run), so that a server starting meanwhile waits for the restore.
 */
const MIGRATION_LOCK_ID = 4_232_017;

/** Waits for any migration of the database to finish, and holds others off until the commit. */
export async function lockMigrations(session: Session): Promise<void> {
  await session.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK_ID]);
}

/**
 * Applies migrations inside the caller's transaction and records them as Prisma's schema engine
 * does (the same table, one row per migration with the SHA-256 of its script as its checksum),
 * so that a later `npm start` finds them applied. Being inside the restore's transaction, a
 * failure anywhere afterwards takes them back with the rows.
 */
export async function applyMigrationScripts(
  session: Session,
  migrations: { name: string; script: string }[],
): Promise<void> {
  await session.exec(`CREATE TABLE IF NOT EXISTS ${quoteIdent(MIGRATIONS_TABLE)} (
    "id"                  VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"            VARCHAR(64) NOT NULL,
    "finished_at"         TIMESTAMPTZ,
    "migration_name"      VARCHAR(255) NOT NULL,
    "logs"                TEXT,
    "rolled_back_at"      TIMESTAMPTZ,
    "started_at"          TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count" INTEGER NOT NULL DEFAULT 0
  )`);
  for (const migration of migrations) {
    const [{ started }] = (await session.query<{ started: string }>(
      "SELECT clock_timestamp()::text AS started",
    )) as [{ started: string }];
    await session.exec(migration.script);
    await session.query(
      `INSERT INTO ${quoteIdent(MIGRATIONS_TABLE)}
         (id, checksum, finished_at, migration_name, started_at, applied_steps_count)
       VALUES (gen_random_uuid()::text, $1, clock_timestamp(), $2, $3::timestamptz, 1)`,
      [createHash("sha256").update(migration.script).digest("hex"), migration.name, started],
    );
  }
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
