// npm run restore -- ARCHIVE - puts a backup (npm run backup) into an empty database and an empty
// uploads folder: DATABASE_URL's database, or the embedded one in DATA_DIR (ADR 033). A database
// or folder that holds anything is refused, and nothing is written. The restore is one
// transaction (the archive's migrations and its rows); on the embedded database it is made in a
// folder beside DATA_DIR/pglite and renamed into place at the end, so a failure leaves the target
// exactly as it was.
// First: what this process creates under DATA_DIR is the account's only (#32 finding 1).
import "./lib/private-process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { getEnv } from "../lib/env";
import {
  BackupError,
  type BackupManifest,
  imageStoreOf,
  isEmptyFolder,
  readManifest,
  restoreBackup,
} from "../lib/server/backup/archive";
import {
  type BackupDatabase,
  pgliteBackupDatabase,
  postgresBackupDatabase,
} from "../lib/server/backup/database";
import { DataFolderLockedError, lockDataFolder, unlockDataFolder } from "../lib/server/data-lock";
import { privateAfterOpen } from "../lib/server/private-files";

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

function restore(db: BackupDatabase, afterCommit?: () => Promise<void>): Promise<BackupManifest> {
  return restoreBackup({
    archive,
    db,
    uploadsDir: env.UPLOADS_DIR,
    migrationsDir: MIGRATIONS,
    tmpDir: os.tmpdir(),
    afterCommit,
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
    // Made beside the target and renamed into place once whole: a failed or killed restore never
    // leaves a database folder a server would open.
    const building = `${env.PGLITE_DIR}.restoring-${process.pid}`;
    await fs.promises.rm(building, { recursive: true, force: true });
    await fs.promises.mkdir(building, { recursive: true, mode: 0o700 });
    const pglite = new PGlite(building);
    try {
      return await restore(pgliteBackupDatabase(pglite), async () => {
        await pglite.close();
        await fs.promises.rmdir(env.PGLITE_DIR).catch((error: NodeJS.ErrnoException) => {
          if (error.code !== "ENOENT") throw error;
        });
        await fs.promises.rename(building, env.PGLITE_DIR);
      });
    } finally {
      if (!pglite.closed) await pglite.close();
      await fs.promises.rm(building, { recursive: true, force: true });
    }
  } finally {
    unlockDataFolder(env.PGLITE_DIR);
  }
}

// A DATA_DIR the restore makes is removed again when it fails: the target is left as it was.
const dataDirExisted = fs.existsSync(env.DATA_DIR);
try {
  if (!fs.existsSync(archive)) throw new BackupError(`There is no file ${archive}.`);
  // Checked (its size, every name) before a database is opened: the embedded one alone takes
  // hundreds of MB, and a refused archive should cost nothing.
  await readManifest(archive);
  const started = performance.now();
  const manifest = env.DATABASE_URL
    ? await restore(postgresBackupDatabase(env.DATABASE_URL))
    : await restoreEmbedded();
  // PGlite chmods the files it writes to 0666 whatever the umask: the restored folder is made
  // private to this account before anyone is told it is ready (issue 32.1).
  if (fs.existsSync(env.DATA_DIR)) privateAfterOpen(env.DATA_DIR);
  console.log(
    `Restored ${manifest.counts.players} player(s), ${manifest.counts.trees} tree(s), ` +
      `${manifest.counts.people} Sim(s), ${manifest.counts.images} image(s) ` +
      `(${manifest.uploads.files} file(s)) and ${manifest.counts.publications} publication(s), ` +
      `backed up at ${manifest.createdAt} on ${manifest.engine}, in ` +
      `${((performance.now() - started) / 1000).toFixed(1)} s.`,
  );
  if (manifest.uploads.omitted) {
    console.log(
      `The archive was made with --no-uploads and holds no images: copy the old site's uploads folder to ${env.UPLOADS_DIR}.`,
    );
  } else if (manifest.uploads.store !== "local") {
    console.log(
      `The archive's images were kept in ${manifest.uploads.store === "s3" ? "an S3 bucket" : "Vercel Blob"}: point this server at that bucket (docs/reference.md, "Backups").`,
    );
  } else if (imageStoreOf(env) !== "local" && manifest.uploads.files > 0) {
    console.log(
      `This environment keeps images in a bucket, but the archive's images were written to ${env.UPLOADS_DIR}: copy them into the bucket under the same keys.`,
    );
  }
} catch (error) {
  if (!dataDirExisted) {
    // Only folders this run made, and empty by now (rmdir refuses anything else).
    for (const dir of [env.UPLOADS_DIR, env.DATA_DIR]) {
      try {
        fs.rmdirSync(dir);
      } catch {
        // absent, or holds something
      }
    }
  }
  console.error(`Nothing was restored. ${error instanceof Error ? error.message : String(error)}`);
  if (!(error instanceof BackupError) && !(error instanceof DataFolderLockedError)) {
    console.error((error as Error).stack);
  }
  process.exitCode = 1;
}
