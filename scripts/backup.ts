// npm run backup [-- FILE] - one consistent archive of the database and the local uploads, while
// the server keeps serving (ADR 033). On PostgreSQL the snapshot is taken here, on a connection of
// its own; on the embedded database the server that holds it takes it and streams the archive
// over DATA_DIR's local socket, and with no server running this process opens the folder itself.
import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import { type IncomingMessage, request } from "node:http";
import path from "node:path";
import type { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { PGlite } from "@electric-sql/pglite";
import { getEnv } from "../lib/env";
import {
  adminSocketPath,
  BackupError,
  type BackupManifest,
  imageStoreOf,
  isEmptyFolder,
  MAX_SOCKET_PATH,
  prepareBackup,
  verifyArchive,
} from "../lib/server/backup/archive";
import {
  type BackupDatabase,
  pgliteBackupDatabase,
  postgresBackupDatabase,
} from "../lib/server/backup/database";
import {
  DataFolderLockedError,
  lockDataFolder,
  readLockHolder,
  unlockDataFolder,
} from "../lib/server/data-lock";

const env = getEnv();
const imageStore = imageStoreOf(env);
const started = performance.now();
const stamp = new Date().toISOString().replace(/[:.]/g, "-");
const args = process.argv.slice(2).filter((arg) => arg !== "--");
if (args.length > 1 || args.some((arg) => arg.startsWith("-"))) {
  console.error(
    "Usage: npm run backup [-- FILE]   (default: DATA_DIR/backups/heirloom-<time>.tar.gz)",
  );
  process.exit(2);
}
// npm runs scripts in the project's folder; a relative FILE is the caller's (INIT_CWD).
const out = args[0]
  ? path.resolve(process.env.INIT_CWD ?? process.cwd(), args[0])
  : path.join(env.DATA_DIR, "backups", `heirloom-${stamp}.tar.gz`);
const partial = `${out}.partial-${process.pid}`;

/** The snapshot taken in this process, written to `file`. */
async function backUpHere(db: BackupDatabase, file: Writable): Promise<void> {
  const prepared = await prepareBackup({
    db,
    uploadsDir: imageStore === "local" ? env.UPLOADS_DIR : null,
    imageStore,
    tmpDir: path.join(env.DATA_DIR, "tmp"),
  });
  try {
    await prepared.write(file);
  } finally {
    await prepared.dispose();
  }
}

/** Asks the server holding the embedded database for the archive, written to `file`. */
async function askServer(locked: DataFolderLockedError, file: Writable): Promise<void> {
  const socketPath = adminSocketPath(env.DATA_DIR);
  const holder = readLockHolder(env.PGLITE_DIR);
  const who = holder ? `pid ${holder.pid}${holder.port ? `, port ${holder.port}` : ""}` : "";
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH) {
    throw new BackupError(
      `The embedded database is open in a server (${who}), and DATA_DIR's path is too long for its backup socket. Stop the server, then run the backup.`,
    );
  }
  const answer = await new Promise<IncomingMessage>((resolve, reject) => {
    const ask = request({ socketPath, method: "POST", path: "/backup" }, resolve);
    ask.on("error", (error: NodeJS.ErrnoException) =>
      reject(
        error.code === "ENOENT" || error.code === "ECONNREFUSED"
          ? new BackupError(
              `${locked.message.split(". ")[0]}, and it does not answer backups on ${socketPath} ` +
                "(not a server, or one older than backups). Wait for it to finish or stop it, then run the backup.",
            )
          : error,
      ),
    );
    ask.end();
  });
  if (answer.statusCode !== 200) {
    const chunks: Buffer[] = [];
    for await (const chunk of answer) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    let detail = text;
    try {
      detail = (JSON.parse(text) as { errors: { detail: string }[] }).errors[0]?.detail ?? text;
    } catch {
      // not the error shape: say what came
    }
    throw new BackupError(`The server (${who}) refused the backup: ${detail}`);
  }
  await pipeline(answer, file);
}

async function backUpEmbedded(file: Writable): Promise<"server" | "here"> {
  try {
    lockDataFolder(env.PGLITE_DIR);
  } catch (error) {
    if (!(error instanceof DataFolderLockedError)) throw error;
    await askServer(error, file);
    return "server";
  }
  try {
    if (await isEmptyFolder(env.PGLITE_DIR)) {
      throw new BackupError(`There is no embedded database in ${env.PGLITE_DIR} to back up.`);
    }
    const pglite = new PGlite(env.PGLITE_DIR);
    try {
      await pglite.waitReady;
      await backUpHere(pgliteBackupDatabase(pglite), file);
    } finally {
      await pglite.close();
    }
    return "here";
  } finally {
    unlockDataFolder(env.PGLITE_DIR);
  }
}

const describe = (m: BackupManifest) =>
  `${m.counts.players} player(s), ${m.counts.trees} tree(s), ${m.counts.people} Sim(s), ` +
  `${m.counts.images} image(s) (${m.uploads.files} file(s) in the archive), ` +
  `${m.counts.publications} publication(s)`;

try {
  await fs.mkdir(path.dirname(out), { recursive: true, mode: 0o700 });
  // It holds password hashes and sessions: the owner's only.
  const file = createWriteStream(partial, { flags: "wx", mode: 0o600 });
  const by = env.DATABASE_URL
    ? (await backUpHere(postgresBackupDatabase(env.DATABASE_URL), file), "here")
    : await backUpEmbedded(file);
  const manifest = await verifyArchive(partial);
  await fs.rename(partial, out);
  const size = (await fs.stat(out)).size;
  console.log(
    `Backed up ${describe(manifest)} to ${out} (${(size / 1e6).toFixed(1)} MB, ` +
      `${((performance.now() - started) / 1000).toFixed(1)} s; the database snapshot held ` +
      `${manifest.snapshotMs} ms${by === "server" ? ", taken by the running server" : ""}).`,
  );
  if (manifest.uploads.missing.length > 0) {
    console.warn(
      `Warning: ${manifest.uploads.missing.length} stored image(s) had no file: ${manifest.uploads.missing.slice(0, 5).join(", ")}`,
    );
  }
  if (imageStore !== "local") {
    console.log(
      `Images live in ${imageStore === "s3" ? "the S3 bucket" : "Vercel Blob"} and are not in the archive: keep the bucket versioned and replicated (README, "Backups").`,
    );
  }
} catch (error) {
  await fs.rm(partial, { force: true });
  console.error(`No backup was written. ${error instanceof Error ? error.message : String(error)}`);
  if (!(error instanceof BackupError) && !(error instanceof DataFolderLockedError)) {
    console.error((error as Error).stack);
  }
  process.exit(1);
}
