// The pglite project's files run two at a time, each in a process of its own. One PGlite
// directory may be opened by one process only, so each file gets a DATA_DIR of its own: a copy of
// the migrated template (setup-pglite.ts), made before the file's modules read the environment.
// pglite-file-close.ts removes it when the file ends.
import fs from "node:fs";
import path from "node:path";
import { PGLITE_TEMPLATE_DIR, PGLITE_TESTS_DIR } from "./pglite-test-dirs";

const dataDir = path.join(PGLITE_TESTS_DIR, `file-${process.pid}-${Date.now()}`);
fs.cpSync(PGLITE_TEMPLATE_DIR, dataDir, { recursive: true });
process.env.DATA_DIR = dataDir;
