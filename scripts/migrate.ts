// npm run db:migrate - apply pending migrations to DATABASE_URL, or to the embedded PGlite.
import fs from "node:fs/promises";
import { getEnv } from "../lib/env";
import { applyMigrations, targetFromEnv } from "./lib/schema-engine";

const env = getEnv();
const target = targetFromEnv(env);
if ("pgliteDir" in target) await fs.mkdir(target.pgliteDir, { recursive: true });
const applied = await applyMigrations({
  target,
  migrationsDir: "prisma/migrations",
  schemaPath: "prisma/schema.prisma",
});
const where = env.DATABASE_URL ? "PostgreSQL" : `PGlite (${env.PGLITE_DIR})`;
console.log(
  applied.length === 0
    ? `Database is up to date on ${where}.`
    : `Applied ${applied.length} migration(s) on ${where}: ${applied.join(", ")}`,
);
