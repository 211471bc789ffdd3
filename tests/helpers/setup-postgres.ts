import pg from "pg";
import { applyMigrations } from "../../scripts/lib/schema-engine";
import { TEST_DATABASE_URL } from "../../vitest.config";

async function asAdmin<T>(work: (client: pg.Client, name: string) => Promise<T>): Promise<T> {
  const url = new URL(TEST_DATABASE_URL);
  const client = new pg.Client({
    connectionString: Object.assign(new URL(url), { pathname: "/postgres" }).toString(),
  });
  await client.connect();
  try {
    return await work(client, url.pathname.slice(1));
  } finally {
    await client.end();
  }
}

/** Creates this run's PostgreSQL database, applies every migration, and drops it afterwards. */
export default async function setup() {
  await asAdmin(async (client, name) => {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"`);
  });
  await applyMigrations({
    target: { databaseUrl: TEST_DATABASE_URL },
    migrationsDir: "prisma/migrations",
    schemaPath: "prisma/schema.prisma",
  });
  return async function teardown() {
    await asAdmin((client, name) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  };
}
