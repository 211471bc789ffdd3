// Where the pglite project's files keep their data (setup-pglite.ts, pglite-data-dir.ts): a
// module of its own, so that each file's setup does not load the migration engine for a path.
import path from "node:path";

/** The migrated template, and a folder per test file beside it. */
export const PGLITE_TESTS_DIR = path.resolve(".data/test-pglite");
/** The template's DATA_DIR: its database is in `pglite` under it. */
export const PGLITE_TEMPLATE_DIR = path.join(PGLITE_TESTS_DIR, "template");
