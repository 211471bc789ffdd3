// npm start - build if needed, apply pending migrations, then serve on PORT.
import fs from "node:fs/promises";
import { getEnv } from "../lib/env";
import { DataFolderLockedError, lockDataFolder } from "../lib/server/data-lock";
import { ensureBuild } from "./ensure-build";
import { applyMigrations, targetFromEnv } from "./lib/schema-engine";
import { getPglite } from "../lib/server/front/pglite";
import { startServer } from "../lib/server/front/server";

Object.assign(process.env, { NODE_ENV: process.env.NODE_ENV ?? "production" });
const env = getEnv();
const target = targetFromEnv(env);
try {
  // The embedded database's folder is this process's until it exits (ADR 013): taken before the
  // build, so a second start is refused at once and never rebuilds under a running server.
  if ("pgliteDir" in target) lockDataFolder(target.pgliteDir, { port: env.PORT });
  ensureBuild();
  if ("pgliteDir" in target) await fs.mkdir(target.pgliteDir, { recursive: true });
  // The embedded database is opened once, here, and kept open: the migrations, the server in
  // front of Next and Next's Prisma client all use this one PGlite (lib/server/front/pglite.ts),
  // which runs on a worker thread of its own (ADR 036).
  const applied = await applyMigrations({
    target:
      "pgliteDir" in target ? { pglite: getPglite(target.pgliteDir, { port: env.PORT }) } : target,
    migrationsDir: "prisma/migrations",
    schemaPath: "prisma/schema.prisma",
  });
  if (applied.length > 0) console.log(`Applied migrations: ${applied.join(", ")}`);
  await startServer();
} catch (error) {
  // A sentence for the player, not a stack trace.
  console.error(
    `Heirloom did not start. ${error instanceof Error ? error.message : String(error)}`,
  );
  if (!(error instanceof DataFolderLockedError) && error instanceof Error && error.stack) {
    console.error(error.stack);
  }
  process.exit(1);
}
