// npm run backup [-- FILE] [--no-uploads] [--keep N] - one consistent archive of the database and
// the local uploads, while the server keeps serving (ADR 033). On PostgreSQL the snapshot is taken
// here, on a connection of its own; on the embedded database the server that holds it takes it
// and streams the archive over DATA_DIR's local socket, and with no server running this process
// opens the folder itself. `--keep N` then keeps the newest N archives of the archive's folder.
// npm run backup -- --verify ARCHIVE - checks an archive completely, writing nothing.
// First: what this process creates under DATA_DIR is the account's only (#32 finding 1).
import "./lib/private-process";
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
  pruneArchives,
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

const USAGE = `Usage: npm run backup [-- [FILE] [--no-uploads] [--keep N]]
         (FILE defaults to DATA_DIR/backups/heirloom-<time>.tar.gz)
       npm run backup -- --verify ARCHIVE`;

interface Options {
  file?: string;
  verify?: string;
  keep?: number;
  noUploads: boolean;
}

/** The command line, or null when it is not one this command takes. */
function parseArgs(argv: string[]): Options | null {
  const found: Options = { noUploads: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") continue;
    if (arg === "--no-uploads") {
      found.noUploads = true;
    } else if (/^--(verify|keep)(=|$)/.test(arg)) {
      const equals = arg.indexOf("=");
      const flag = equals === -1 ? arg : arg.slice(0, equals);
      const value = equals === -1 ? argv[++i] : arg.slice(equals + 1);
      if (value === undefined || value === "") return null;
      if (flag === "--verify") found.verify = value;
      else if (/^[1-9]\d{0,5}$/.test(value)) found.keep = Number(value);
      else return null;
    } else if (arg.startsWith("-") || found.file !== undefined) {
      return null;
    } else {
      found.file = arg;
    }
  }
  const withVerify = found.file !== undefined || found.keep !== undefined || found.noUploads;
  return found.verify !== undefined && withVerify ? null : found;
}

const parsed = parseArgs(process.argv.slice(2));
if (!parsed) {
  console.error(USAGE);
  process.exit(2);
}
const options: Options = parsed;
const env = getEnv();
const imageStore = imageStoreOf(env);
// npm runs scripts in the project's folder; a relative FILE is the caller's (INIT_CWD).
const fromCaller = (file: string) => path.resolve(process.env.INIT_CWD ?? process.cwd(), file);

const describe = (m: BackupManifest) =>
  `${m.counts.players} player(s), ${m.counts.trees} tree(s), ${m.counts.people} Sim(s), ` +
  `${m.counts.images} image(s) (${m.uploads.files} file(s) in the archive), ` +
  `${m.counts.publications} publication(s)`;

/** The snapshot taken in this process, written to `file`. */
async function backUpHere(db: BackupDatabase, file: Writable): Promise<void> {
  const prepared = await prepareBackup({
    db,
    uploadsDir: imageStore === "local" ? env.UPLOADS_DIR : null,
    imageStore,
    tmpDir: path.join(env.DATA_DIR, "tmp"),
    omitUploads: options.noUploads,
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
    const ask = request(
      {
        socketPath,
        method: "POST",
        path: options.noUploads ? "/backup?uploads=none" : "/backup",
      },
      resolve,
    );
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

/** Checks an archive completely and says what it found; writes nothing. Answers the exit code. */
async function verify(file: string): Promise<number> {
  try {
    const report = await verifyArchive(file);
    const m = report.manifest;
    if (report.problems.length > 0) {
      console.error(
        `${file} is damaged or incomplete:\n` +
          report.problems.map((problem) => `  - ${problem}`).join("\n"),
      );
      return 1;
    }
    console.log(
      `${file} is complete: ${report.tables} table(s) and ${report.rows} row(s), each row JSON, ` +
        `each count the manifest's; ${report.files} image file(s) (${(report.bytes / 1e6).toFixed(1)} MB)` +
        `${m.uploads.index ? ", each with its size and SHA-256" : ""}` +
        `${m.uploads.omitted ? " (made with --no-uploads)" : ""}. ` +
        `Backed up at ${m.createdAt} on ${m.engine}: ${describe(m)}; ${m.migrations.length} migration(s).`,
    );
    return 0;
  } catch (error) {
    console.error(
      `${file} failed verification: ${error instanceof Error ? error.message : String(error)}`,
    );
    return 1;
  }
}

/** Writes the archive, checks it, then keeps the newest --keep N. Answers the exit code. */
async function backUp(): Promise<number> {
  const started = performance.now();
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const out = options.file
    ? fromCaller(options.file)
    : path.join(env.DATA_DIR, "backups", `heirloom-${stamp}.tar.gz`);
  const partial = `${out}.partial-${process.pid}`;
  try {
    await fs.mkdir(path.dirname(out), { recursive: true, mode: 0o700 });
    // It holds password hashes and sessions: the owner's only.
    const file = createWriteStream(partial, { flags: "wx", mode: 0o600 });
    const by = env.DATABASE_URL
      ? (await backUpHere(postgresBackupDatabase(env.DATABASE_URL), file), "here")
      : await backUpEmbedded(file);
    const report = await verifyArchive(partial);
    if (report.problems.length > 0) {
      throw new BackupError(`The archive did not read back whole: ${report.problems.join("; ")}`);
    }
    const manifest = report.manifest;
    await fs.rename(partial, out);
    const size = (await fs.stat(out)).size;
    console.log(
      `Backed up ${describe(manifest)} to ${out} (${(size / 1e6).toFixed(1)} MB, ` +
        `${((performance.now() - started) / 1000).toFixed(1)} s; the database snapshot held ` +
        `${manifest.snapshotMs} ms${by === "server" ? ", taken by the running server" : ""}).`,
    );
    if (manifest.uploads.omitted) {
      console.log(
        "The archive holds the database without images (--no-uploads): back up the uploads folder on its own.",
      );
    } else if (manifest.uploads.missing.length > 0) {
      console.warn(
        `Warning: ${manifest.uploads.missing.length} stored image(s) had no file: ${manifest.uploads.missing.slice(0, 5).join(", ")}`,
      );
    }
    if (imageStore !== "local") {
      console.log(
        `Images live in ${imageStore === "s3" ? "the S3 bucket" : "Vercel Blob"} and are not in the archive: keep the bucket versioned and replicated (docs/reference.md, "Backups").`,
      );
    }
  } catch (error) {
    await fs.rm(partial, { force: true });
    console.error(
      `No backup was written. ${error instanceof Error ? error.message : String(error)}`,
    );
    if (!(error instanceof BackupError) && !(error instanceof DataFolderLockedError)) {
      console.error((error as Error).stack);
    }
    return 1;
  }
  if (options.keep !== undefined) {
    const folder = path.dirname(out);
    const removed = await pruneArchives(folder, options.keep);
    console.log(
      `Kept the newest ${options.keep} archive(s) in ${folder}` +
        (removed.length > 0 ? `; removed ${removed.join(", ")}.` : "; removed none."),
    );
  }
  return 0;
}

process.exitCode =
  options.verify !== undefined ? await verify(fromCaller(options.verify)) : await backUp();
