import fs from "node:fs/promises";
import path from "node:path";
import { applyMigrations } from "../../scripts/lib/schema-engine";
import { PGLITE_TEMPLATE_DIR, PGLITE_TESTS_DIR } from "./pglite-test-dirs";

/**
 * A fresh embedded PGlite directory, migrated once, for the suite that proves the default path:
 * each test file then starts from a copy of it in a DATA_DIR of its own (pglite-data-dir.ts), so
 * that two files run at once.
 */
export default async function setup() {
  const dir = path.join(PGLITE_TEMPLATE_DIR, "pglite");
  await fs.rm(PGLITE_TESTS_DIR, { recursive: true, force: true });
  await fs.mkdir(dir, { recursive: true });
  await applyMigrations({
    target: { pgliteDir: dir },
    migrationsDir: "prisma/migrations",
    schemaPath: "prisma/schema.prisma",
  });
  return async () => {
    await fs.rm(PGLITE_TESTS_DIR, { recursive: true, force: true });
  };
}
