import fs from "node:fs/promises";
import path from "node:path";
import { applyMigrations } from "../../scripts/lib/schema-engine";

/** A fresh embedded PGlite directory, migrated, for the suite that proves the default path. */
export default async function setup() {
  const dir = path.resolve(".data/test-pglite/pglite");
  await fs.rm(path.dirname(dir), { recursive: true, force: true });
  await fs.mkdir(dir, { recursive: true });
  await applyMigrations({
    target: { pgliteDir: dir },
    migrationsDir: "prisma/migrations",
    schemaPath: "prisma/schema.prisma",
  });
}
