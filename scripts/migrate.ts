// npm run db:migrate - apply pending migrations to DATABASE_URL, or to the embedded PGlite.
// Also the first half of `npm run dev`. First: what this process creates under DATA_DIR is the
// account's only (#32 finding 1).
import "./lib/private-process";
import fs from "node:fs/promises";
import { getEnv } from "../lib/env";
import { describeRepair, privateAfterOpen, repairPrivateTree } from "../lib/server/private-files";
import { ensureClient } from "./lib/prisma-client";
import { applyMigrations, targetFromEnv } from "./lib/schema-engine";

const env = getEnv();
const target = targetFromEnv(env);
const where = env.DATABASE_URL ? "PostgreSQL" : `PGlite (${env.PGLITE_DIR})`;
try {
  // A DATA_DIR made by an older release (or by hand) is made private first, in one line.
  const repaired = describeRepair(env.DATA_DIR, repairPrivateTree(env.DATA_DIR));
  if (repaired) console.log(repaired);
  // After a `git pull` that changed the schema, `npm run dev` serves the new client.
  const regenerated = ensureClient(process.cwd());
  if (regenerated) console.log(`Generated the Prisma client again: ${regenerated}.`);
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
  // Again, quietly: PGlite gives the files of a new database its own modes (private-files.ts).
  privateAfterOpen(env.DATA_DIR);
} catch (error) {
  console.error(
    `Migrations were not applied. ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
}
