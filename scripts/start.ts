// npm start - build if needed, apply pending migrations, then serve on PORT.
// First: what this process creates under DATA_DIR is the account's only (#32 finding 1).
import "./lib/private-process";
import fs from "node:fs/promises";
import { getEnv } from "../lib/env";
import { DataFolderLockedError, lockDataFolder } from "../lib/server/data-lock";
import { describeRepair, privateAfterOpen, repairPrivateTree } from "../lib/server/private-files";
import { ensureBuild } from "./ensure-build";
import { ensureClient } from "./lib/prisma-client";
import { applyMigrations, targetFromEnv } from "./lib/schema-engine";
import { getPglite, processPglite } from "../lib/server/front/pglite";
import { PortUnavailableError } from "../lib/server/front/listen";
import { startServer } from "../lib/server/front/server";

Object.assign(process.env, { NODE_ENV: process.env.NODE_ENV ?? "production" });
const env = getEnv();
const target = targetFromEnv(env);
try {
  // The embedded database's folder is this process's until it exits (ADR 013): taken before the
  // build, so a second start is refused at once and never rebuilds under a running server.
  if ("pgliteDir" in target) lockDataFolder(target.pgliteDir, { port: env.PORT });
  // A DATA_DIR made by an older release (or by hand) is made private first, in one line.
  const repaired = describeRepair(env.DATA_DIR, repairPrivateTree(env.DATA_DIR));
  if (repaired) console.log(repaired);
  // After a `git pull` that changed the schema, the client the build compiles is generated again.
  const regenerated = ensureClient(process.cwd());
  if (regenerated) console.log(`Generated the Prisma client again: ${regenerated}.`);
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
  // Again once the database is open, quietly: PGlite gives the files of a new database, and the
  // catalog caches (pg_internal.init) it writes at each open, their modes whatever the umask.
  privateAfterOpen(env.DATA_DIR);
  await startServer();
} catch (error) {
  // A sentence for the player, not a stack trace.
  console.error(
    `Heirloom did not start. ${error instanceof Error ? error.message : String(error)}`,
  );
  const expected = error instanceof DataFolderLockedError || error instanceof PortUnavailableError;
  if (!expected && error instanceof Error && error.stack) console.error(error.stack);
  // The embedded database is closed before the process ends, and the exit gives its folder's
  // lock back (data-lock.ts), so the next start is not refused (#32 finding 8).
  await Promise.race([
    processPglite()
      ?.close()
      .catch(() => undefined),
    new Promise((resolve) => setTimeout(resolve, 10_000).unref()),
  ]);
  process.exit(1);
}
