import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pkg from "../../package.json" with { type: "json" };
import { applyMigrations, createMigration } from "../../scripts/lib/schema-engine";

const MIGRATIONS = "prisma/migrations";
const SCHEMA = "prisma/schema.prisma";
const POSTGRES = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432";
const DB = `heirloom_migrations_test_${process.pid}`;

async function committedMigrations(): Promise<string[]> {
  const entries = await fs.readdir(MIGRATIONS, { withFileTypes: true });
  return entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

async function recreate(name: string) {
  const admin = new pg.Client({ connectionString: `${POSTGRES}/postgres` });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
}

async function tablesOf(query: (sql: string) => Promise<{ rows: { table_name: string }[] }>) {
  const { rows } = await query(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
  );
  return rows.map((r) => r.table_name);
}

const EXPECTED_TABLES = [
  "EmailRestoreToken",
  "GalleryTerm",
  "MailJob",
  "PasswordResetToken",
  "Person",
  "PublishedTree",
  "RateLimit",
  "Session",
  "Setting",
  "Tree",
  "TreeChunk",
  "TreeVersion",
  "Upload",
  "User",
  "_prisma_migrations",
];

let scratch: string;
beforeAll(async () => {
  scratch = await fs.mkdtemp(path.join(os.tmpdir(), "heirloom-migrations-"));
});
afterAll(async () => {
  await fs.rm(scratch, { recursive: true, force: true });
  const admin = new pg.Client({ connectionString: `${POSTGRES}/postgres` });
  await admin.connect();
  for (const name of [DB, `${DB}_created`, `${DB}_whole`])
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.end();
});

describe("the wasm migration runner", () => {
  it("pins @prisma/schema-engine-wasm to an exact version", () => {
    expect(pkg.dependencies["@prisma/schema-engine-wasm"]).toMatch(/^\d+\.\d+\.\d+-[\w.]+$/);
  });

  it("applies every migration to PGlite once, then finds nothing to do", async () => {
    const dir = path.join(scratch, "pglite");
    const target = { pgliteDir: dir };
    expect(
      await applyMigrations({ target, migrationsDir: MIGRATIONS, schemaPath: SCHEMA }),
    ).toEqual(await committedMigrations());
    expect(
      await applyMigrations({ target, migrationsDir: MIGRATIONS, schemaPath: SCHEMA }),
    ).toEqual([]);
    const db = new PGlite(dir);
    try {
      expect(await tablesOf((sql) => db.query<{ table_name: string }>(sql))).toEqual(
        EXPECTED_TABLES,
      );
    } finally {
      await db.close();
    }
  });

  it("applies every migration to PostgreSQL once, even when two instances start together", async () => {
    await recreate(DB);
    const target = { databaseUrl: `${POSTGRES}/${DB}` };
    const [first, second] = await Promise.all([
      applyMigrations({ target, migrationsDir: MIGRATIONS, schemaPath: SCHEMA }),
      applyMigrations({ target, migrationsDir: MIGRATIONS, schemaPath: SCHEMA }),
    ]);
    expect([...first, ...second]).toEqual(await committedMigrations());
    const client = new pg.Client({ connectionString: target.databaseUrl });
    await client.connect();
    try {
      expect(await tablesOf((sql) => client.query(sql))).toEqual(EXPECTED_TABLES);
      const { rows } = await client.query(
        "SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL",
      );
      expect(rows).toHaveLength((await committedMigrations()).length);
      // 20261122110500_lz4_json_columns: the JSON rewritten on every save is compressed with LZ4
      const compression = await client.query<{ column: string; method: string }>(
        `SELECT attrelid::regclass || '.' || attname AS "column", attcompression AS "method"
         FROM pg_attribute
         WHERE attrelid IN ('"Tree"'::regclass, '"PublishedTree"'::regclass)
           AND attname IN ('data', 'tree', 'people')
         ORDER BY 1`,
      );
      expect(compression.rows).toEqual([
        { column: '"PublishedTree".people', method: "l" },
        { column: '"PublishedTree".tree', method: "l" },
        { column: '"Tree".data', method: "l" },
      ]);
    } finally {
      await client.end();
    }
  });

  it("creates a migration for a schema change, and applies it on both databases", async () => {
    const migrationsDir = path.join(scratch, "migrations");
    await fs.cp(MIGRATIONS, migrationsDir, { recursive: true });
    const schemaPath = path.join(scratch, "schema.prisma");
    const schema = await fs.readFile(SCHEMA, "utf8");

    await fs.writeFile(schemaPath, schema);
    expect(await createMigration({ name: "nothing", migrationsDir, schemaPath })).toBeNull();

    await fs.writeFile(
      schemaPath,
      `${schema}\nmodel Keepsake {\n  id    String @id\n  label String\n}\n`,
    );
    const created = await createMigration({
      name: "add keepsake",
      migrationsDir,
      schemaPath,
      now: new Date("2030-01-02T03:04:05Z"),
    });
    expect(created).toBe("20300102030405_add_keepsake");
    const sql = await fs.readFile(path.join(migrationsDir, created!, "migration.sql"), "utf8");
    expect(sql).toContain('CREATE TABLE "Keepsake"');
    expect(sql).not.toContain('"User"');

    expect(await createMigration({ name: "again", migrationsDir, schemaPath })).toBeNull();

    await recreate(`${DB}_created`);
    const applied = await applyMigrations({
      target: { databaseUrl: `${POSTGRES}/${DB}_created` },
      migrationsDir,
      schemaPath,
    });
    expect(applied.at(-1)).toBe(created);
    const pgliteApplied = await applyMigrations({
      target: { pgliteDir: path.join(scratch, "pglite-created") },
      migrationsDir,
      schemaPath,
    });
    expect(pgliteApplied.at(-1)).toBe(created);
    // The slowest test of the project: three schema-engine (WASM) diffs and two full migration runs,
    // over a minute on a busy 2-core machine.
  }, 300_000);

  it("runs a script whole (a DO block, a semicolon in a string) and records a failed one as failed", async () => {
    const migrationsDir = path.join(scratch, "whole-scripts");
    await fs.cp(MIGRATIONS, migrationsDir, { recursive: true });
    const write = async (name: string, sql: string) => {
      await fs.mkdir(path.join(migrationsDir, name));
      await fs.writeFile(path.join(migrationsDir, name, "migration.sql"), sql);
    };
    await write(
      "20300101000000_whole",
      `DO $$
       BEGIN
         INSERT INTO "Setting" ("key", "value", "updatedAt") VALUES ('motto', 'Sul; sul!', now());
       EXCEPTION WHEN unique_violation THEN NULL;
       END $$;`,
    );
    const pgliteTarget = { pgliteDir: path.join(scratch, "pglite-whole") };
    const pgTarget = { databaseUrl: `${POSTGRES}/${DB}_whole` };
    await recreate(`${DB}_whole`);
    for (const target of [pgTarget, pgliteTarget]) {
      const applied = await applyMigrations({ target, migrationsDir, schemaPath: SCHEMA });
      expect(applied.at(-1)).toBe("20300101000000_whole");
    }
    const client = new pg.Client({ connectionString: pgTarget.databaseUrl });
    await client.connect();
    const db = new PGlite(pgliteTarget.pgliteDir);
    try {
      const motto = `SELECT "value" FROM "Setting" WHERE "key" = 'motto'`;
      expect((await client.query(motto)).rows).toEqual([{ value: "Sul; sul!" }]);
      expect((await db.query(motto)).rows).toEqual([{ value: "Sul; sul!" }]);
    } finally {
      await client.end();
      await db.close();
    }

    // A script that fails must fail the run on both, not be recorded as applied.
    await write("20300101000001_broken", `ALTER TABLE "NoSuchTable" ADD COLUMN "x" TEXT;`);
    for (const target of [pgTarget, pgliteTarget]) {
      await expect(
        applyMigrations({ target, migrationsDir, schemaPath: SCHEMA }),
      ).rejects.toThrow();
    }
  });
});
