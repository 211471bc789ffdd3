// npm run restore -- ARCHIVE - puts a backup (npm run backup) into an empty database and an empty
// uploads folder: DATABASE_URL's database, or the embedded one in DATA_DIR (ADR 033). A database
// or folder that holds anything is refused, and nothing is written.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { getEnv } from "../lib/env";
import {
  BackupError,
  type BackupManifest,
  imageStoreOf,
  isEmptyFolder,
  restoreBackup,
} from "../lib/server/backup/archive";
import {
  type BackupDatabase,
  pgliteBackupDatabase,
  postgresBackupDatabase,
} from "../lib/server/backup/database";
import { DataFolderLockedError, lockDataFolder, unlockDataFolder } from "../lib/server/data-lock";
import { applyMigrations, type Target } from "./lib/schema-engine";

const ROOT = path.resolve(import.meta.dirname, "..");
const MIGRATIONS = path.join(ROOT, "prisma/migrations");
const env = getEnv();
const args = process.argv.slice(2).filter((arg) => arg !== "--");
if (args.length !== 1 || args[0]!.startsWith("-")) {
  console.error("Usage: npm run restore -- ARCHIVE");
  process.exit(2);
}
// npm runs scripts in the project's folder; a relative ARCHIVE is the caller's (INIT_CWD).
const archive = path.resolve(process.env.INIT_CWD ?? process.cwd(), args[0]!);

/** Applies exactly the archive's migrations (a folder holding those alone), no newer one. */
async function migrateTo(target: Target, names: string[]): Promise<void> {
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), "heirloom-restore-migrations-"));
  try {
    await fs.copyFile(
      path.join(MIGRATIONS, "migration_lock.toml"),
      path.join(folder, "migration_lock.toml"),
    );
    for (const name of names) {
      try {
        await fs.cp(path.join(MIGRATIONS, name), path.join(folder, name), { recursive: true });
      } catch {
        throw new BackupError(
          `The archive was made by a newer Heirloom (its migration ${name} is not known here): update this checkout, then restore.`,
        );
      }
    }
    await applyMigrations({
      target,
      migrationsDir: folder,
      schemaPath: path.join(ROOT, "prisma/schema.prisma"),
    });
  } finally {
    await fs.rm(folder, { recursive: true, force: true });
  }
}

async function restore(db: BackupDatabase, target: Target): Promise<BackupManifest> {
  return restoreBackup({
    archive,
    db,
    uploadsDir: env.UPLOADS_DIR,
    migrate: (names) => migrateTo(target, names),
  });
}

async function restoreEmbedded(): Promise<BackupManifest> {
  // Held for the whole restore: no server may open the folder half restored.
  lockDataFolder(env.PGLITE_DIR);
  try {
    if (!(await isEmptyFolder(env.PGLITE_DIR))) {
      throw new BackupError(
        `DATA_DIR is not empty: ${env.PGLITE_DIR} holds a database. A restore never merges into or overwrites one: ` +
          "restore into a new DATA_DIR (DATA_DIR=/new/folder npm run restore -- ARCHIVE), or move this one aside.",
      );
    }
    // Checked here too, before a database folder is made.
    if (!(await isEmptyFolder(env.UPLOADS_DIR))) {
      throw new BackupError(
        `DATA_DIR is not empty: ${env.UPLOADS_DIR} holds files. Restore into a new DATA_DIR, or move this one aside.`,
      );
    }
    await fs.mkdir(env.PGLITE_DIR, { recursive: true });
    const pglite = new PGlite(env.PGLITE_DIR);
    let restored: BackupManifest | undefined;
    try {
      restored = await restore(pgliteBackupDatabase(pglite), { pglite });
    } finally {
      await pglite.close();
      // A failed restore leaves DATA_DIR as empty as it found it.
      if (!restored) await fs.rm(env.PGLITE_DIR, { recursive: true, force: true });
    }
    return restored;
  } finally {
    unlockDataFolder(env.PGLITE_DIR);
  }
}

try {
  await fs.access(archive).catch(() => {
    throw new BackupError(`There is no file ${archive}.`);
  });
  const started = performance.now();
  const manifest = env.DATABASE_URL
    ? await restore(postgresBackupDatabase(env.DATABASE_URL), { databaseUrl: env.DATABASE_URL })
    : await restoreEmbedded();
  console.log(
    `Restored ${manifest.counts.players} player(s), ${manifest.counts.trees} tree(s), ` +
      `${manifest.counts.people} Sim(s), ${manifest.counts.images} image(s) ` +
      `(${manifest.uploads.files} file(s)) and ${manifest.counts.publications} publication(s), ` +
      `backed up at ${manifest.createdAt} on ${manifest.engine}, in ` +
      `${((performance.now() - started) / 1000).toFixed(1)} s.`,
  );
  if (manifest.uploads.store !== "local") {
    console.log(
      `The archive's images were kept in ${manifest.uploads.store === "s3" ? "an S3 bucket" : "Vercel Blob"}: point this server at that bucket (README, "Backups").`,
    );
  } else if (imageStoreOf(env) !== "local" && manifest.uploads.files > 0) {
    console.log(
      `This environment keeps images in a bucket, but the archive's images were written to ${env.UPLOADS_DIR}: copy them into the bucket under the same keys.`,
    );
  }
} catch (error) {
  console.error(`Nothing was restored. ${error instanceof Error ? error.message : String(error)}`);
  if (!(error instanceof BackupError) && !(error instanceof DataFolderLockedError)) {
    console.error((error as Error).stack);
  }
  process.exit(1);
}
