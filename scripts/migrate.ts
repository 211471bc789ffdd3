// npm run db:migrate - apply pending migrations to DATABASE_URL, or to the embedded PGlite.
import fs from "node:fs/promises";
import { getEnv } from "../lib/env";
import { applyMigrations, targetFromEnv } from "./lib/schema-engine";

const env = getEnv();
const target = targetFromEnv(env);
const where = env.DATABASE_URL ? "PostgreSQL" : `PGlite (${env.PGLITE_DIR})`;
try {
  if ("pgliteDir" in target) await fs.mkdir(target.pgliteDir, { recursive: true });
  // Takes the embedded folder's lock for the run (lib/server/data-lock.ts): refused, with the
  // holder named, while a server has it open.
  const applied = await applyMigrations({
    target,
    migrationsDir: "prisma/migrations",
    schemaPath: "prisma/schema.prisma",
  });
  console.log(
    applied.length === 0
      ? `Database is up to date on ${where}.`
      : `Applied ${applied.length} migration(s) on ${where}: ${applied.join(", ")}`,
  );
} catch (error) {
  console.error(
    `Migrations were not applied. ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
}
