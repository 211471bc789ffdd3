import pg from "pg";
import { applyMigrations } from "../../scripts/lib/schema-engine";
import { TEST_DATABASE_URL } from "../../vitest.config";

/** Recreates the API tests' PostgreSQL database and applies every migration. */
export default async function setup() {
  const url = new URL(TEST_DATABASE_URL);
  const name = url.pathname.slice(1);
  const admin = new pg.Client({
    connectionString: Object.assign(new URL(url), { pathname: "/postgres" }).toString(),
  });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  await applyMigrations({
    target: { databaseUrl: TEST_DATABASE_URL },
    migrationsDir: "prisma/migrations",
    schemaPath: "prisma/schema.prisma",
  });
}
