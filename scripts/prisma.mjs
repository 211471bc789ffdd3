// Runs the Prisma CLI with a dummy schema-engine path, so it never tries to download the
// native binary (generate, validate and format do not need it).
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const cli = require.resolve("prisma/build/index.js");
const result = spawnSync(process.execPath, [cli, ...process.argv.slice(2)], {
  stdio: "inherit",
  env: {
    PRISMA_SCHEMA_ENGINE_BINARY: "/bin/false",
    PRISMA_HIDE_UPDATE_MESSAGE: "1",
    ...process.env,
  },
});
process.exit(result.status ?? 1);
