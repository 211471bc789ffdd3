// Backup archives (ADR 033): one .tar.gz holding a manifest, the database as one JSON line per row
// and table, and the local uploads (with every image the snapshot's Upload rows name). Made by the process that
// can reach the database consistently (the server holding PGlite, or anyone on PostgreSQL), and
// restored into an empty database and uploads folder only.
import { randomUUID } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable, type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { StringDecoder } from "node:string_decoder";
import { constants, createGunzip, createGzip } from "node:zlib";
import {
  appliedMigrations,
  type BackupDatabase,
  loadRows,
  quoteIdent,
  sequenceValues,
  tableRows,
  tablesInLoadOrder,
  tablesWithRows,
} from "./database";
import { readTar, type TarSource, writeTar } from "./tar";

export const MANIFEST_NAME = "heirloom-backup.json";
export const ARCHIVE_FORMAT = "heirloom-backup";
export const ARCHIVE_VERSION = 1;

/** Where images live: only local ones are in the archive (README, "Backups"). */
export type ImageStore = "local" | "s3" | "vercel-blob";

export interface BackupManifest {
  format: typeof ARCHIVE_FORMAT;
  version: typeof ARCHIVE_VERSION;
  createdAt: string;
  /** The engine it was taken from; it restores into either. */
  engine: "postgresql" | "pglite";
  /** The schema's migrations at the snapshot: the restore replays exactly these. */
  migrations: string[];
  /** Every table in load order (parents before children), with its file and row count. */
  tables: { name: string; file: string; rows: number; bytes: number }[];
  sequences: { name: string; lastValue: string | null }[];
  counts: { players: number; trees: number; people: number; images: number; publications: number };
  uploads: {
    store: ImageStore;
    /** Files in the archive (originals, resized variants, Open Graph cards) and their bytes. */
    files: number;
    bytes: number;
    /** Images whose rows say they were stored but whose file was gone: named, not hidden. */
    missing: string[];
  };
  /** How long the database snapshot held its transaction, in ms. */
  snapshotMs: number;
}

/** Where the environment keeps images (lib/server/storage/index.ts chooses the same way). */
export function imageStoreOf(env: {
  S3_BUCKET?: string;
  BLOB_READ_WRITE_TOKEN?: string;
}): ImageStore {
  return env.S3_BUCKET ? "s3" : env.BLOB_READ_WRITE_TOKEN ? "vercel-blob" : "local";
}

/** A refusal with a sentence for the operator (a non-empty target, a damaged archive, …). */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackupError";
  }
}

/** The local socket the server holding the embedded database answers backups on. */
export function adminSocketPath(dataDir: string): string {
  return path.join(dataDir, "run", "admin.sock");
}

/** Unix socket paths are limited to 107 bytes on Linux (sun_path). */
export const MAX_SOCKET_PATH = 100;

/** A write in flight in local storage (LocalDiskStorage.put's temporary file). */
const TEMPORARY_FILE = /\.[0-9a-f]{12}\.tmp$/;

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === "ENOENT";

/** Every file under `root` (relative keys with "/"), but writes in flight and incoming/. */
async function listFiles(root: string): Promise<string[]> {
  let entries: string[];
  try {
    entries = await fs.readdir(root, { recursive: true });
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
  const keys: string[] = [];
  for (const entry of entries) {
    const key = entry.split(path.sep).join("/");
    if (key.startsWith("incoming/") || TEMPORARY_FILE.test(key)) continue;
    const stat = await fs.stat(path.join(root, entry)).catch(() => null);
    if (stat?.isFile()) keys.push(key);
  }
  return keys;
}

/**
 * Keeps `from` at `to` with a hard link (instant, and the bytes outlive a delete of `from`); a
 * copy when the two are on different disks. False when `from` is gone.
 */
async function keep(from: string, to: string): Promise<boolean> {
  await fs.mkdir(path.dirname(to), { recursive: true });
  try {
    await fs.link(from, to);
    return true;
  } catch (error) {
    if (isMissing(error)) return false;
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "EXDEV" && code !== "EPERM" && code !== "EMLINK") throw error;
  }
  try {
    await fs.copyFile(from, to);
    return true;
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
}

/** Staging folders of backups whose process is gone (killed mid-backup). */
async function removeDeadStagings(tmpDir: string): Promise<void> {
  const entries = await fs.readdir(tmpDir).catch(() => [] as string[]);
  for (const entry of entries) {
    const pid = Number(/^backup-(\d+)-/.exec(entry)?.[1]);
    if (!pid || pid === process.pid) continue;
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ESRCH") {
        await fs.rm(path.join(tmpDir, entry), { recursive: true, force: true });
      }
    }
  }
}

export interface PreparedBackup {
  manifest: BackupManifest;
  /** Writes the archive (gzip) to `destination` and ends it. */
  write(destination: Writable): Promise<void>;
  /** Removes the staging folder; call once, after write or instead of it. */
  dispose(): Promise<void>;
}

/**
 * Takes the backup's snapshot: the local images as they are now (hard links into a staging folder
 * beside them, so that a delete after the snapshot cannot take a file its row still names), then
 * the database in one snapshot, then the images that arrived in between. The archive itself is
 * written afterwards, from the staging folder, without holding the database.
 */
export async function prepareBackup(options: {
  db: BackupDatabase;
  /** The local uploads folder; null when images live in a bucket. */
  uploadsDir: string | null;
  imageStore: ImageStore;
  /** A folder on the uploads' disk for staging (DATA_DIR/tmp). */
  tmpDir: string;
  now?: () => Date;
}): Promise<PreparedBackup> {
  await removeDeadStagings(options.tmpDir);
  const staging = path.join(options.tmpDir, `backup-${process.pid}-${randomUUID()}`);
  const stagedUploads = path.join(staging, "uploads");
  const dispose = () => fs.rm(staging, { recursive: true, force: true });
  await fs.mkdir(path.join(staging, "database"), { recursive: true, mode: 0o700 });
  try {
    const staged = new Set<string>();
    if (options.uploadsDir) {
      for (const key of await listFiles(options.uploadsDir)) {
        if (await keep(path.join(options.uploadsDir, key), path.join(stagedUploads, key))) {
          staged.add(key);
        }
      }
    }
    const stored = new Set<string>();
    const snapshotStarted = performance.now();
    const taken = await options.db.snapshot(async (session) => {
      const migrations = await appliedMigrations(session);
      const tables: BackupManifest["tables"] = [];
      for (const table of await tablesInLoadOrder(session)) {
        const file = `database/${table}.jsonl`;
        const out = createWriteStream(path.join(staging, file), { highWaterMark: 1 << 20 });
        let rows = 0;
        let bytes = 0;
        try {
          for await (const row of tableRows(session, table)) {
            rows += 1;
            const line = `${row}\n`;
            bytes += Buffer.byteLength(line);
            if (table === "Upload") {
              const upload = JSON.parse(row) as { id: string; status: string };
              if (upload.status !== "PENDING") stored.add(upload.id);
            }
            if (!out.write(line))
              await new Promise<void>((resolve) => out.once("drain", () => resolve()));
          }
        } finally {
          await new Promise<void>((resolve, reject) =>
            out.end((error?: Error | null) => (error ? reject(error) : resolve())),
          );
        }
        tables.push({ name: table, file, rows, bytes });
      }
      return { migrations, tables, sequences: await sequenceValues(session) };
    });
    const snapshotMs = performance.now() - snapshotStarted;
    if (taken.migrations.length === 0) {
      throw new BackupError("The database has no migrations applied: there is nothing to back up");
    }

    // Every file kept before the snapshot (originals, their variants, the published trees' cards:
    // whatever the site had, so no kind of file is forgotten), and the originals of the rows
    // that arrived between the links and the snapshot.
    const files = new Map<string, number>([...staged].map((key) => [key, 0]));
    const missing: string[] = [];
    if (options.uploadsDir) {
      for (const name of stored) {
        if (files.has(name) || files.has(`${name}.webp`)) continue;
        let found = false;
        for (const key of [`${name}.webp`, name]) {
          if (await keep(path.join(options.uploadsDir, key), path.join(stagedUploads, key))) {
            files.set(key, 0);
            found = true;
            break;
          }
        }
        if (!found) missing.push(name);
      }
      for (const key of files.keys()) {
        files.set(key, (await fs.stat(path.join(stagedUploads, key))).size);
      }
    }
    const rowsOf = (name: string) => taken.tables.find((t) => t.name === name)?.rows ?? 0;
    const manifest: BackupManifest = {
      format: ARCHIVE_FORMAT,
      version: ARCHIVE_VERSION,
      createdAt: (options.now?.() ?? new Date()).toISOString(),
      engine: options.db.engine,
      migrations: taken.migrations,
      tables: taken.tables,
      sequences: taken.sequences,
      counts: {
        players: rowsOf("User"),
        trees: rowsOf("Tree"),
        people: rowsOf("Person"),
        images: rowsOf("Upload"),
        publications: rowsOf("PublishedTree"),
      },
      uploads: {
        store: options.imageStore,
        files: files.size,
        bytes: [...files.values()].reduce((sum, size) => sum + size, 0),
        missing: missing.sort(),
      },
      snapshotMs: Math.round(snapshotMs),
    };
    const fileSource = (name: string, full: string, size: number): TarSource => ({
      name,
      size,
      bytes: () => createReadStream(full, { highWaterMark: 1 << 20 }),
    });
    function* sources(): Generator<TarSource> {
      const json = Buffer.from(JSON.stringify(manifest, null, 2) + "\n");
      yield { name: MANIFEST_NAME, size: json.length, bytes: () => [json] };
      for (const table of manifest.tables) {
        yield fileSource(table.file, path.join(staging, table.file), table.bytes);
      }
      for (const [key, size] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
        yield fileSource(`uploads/${key}`, path.join(stagedUploads, key), size);
      }
    }
    return {
      manifest,
      // Level 1: images (most of the bytes) do not shrink, the rows' JSON still does about 5×, and
      // on the embedded database this runs in the serving process.
      write: (destination) =>
        pipeline(
          Readable.from(writeTar(sources())),
          createGzip({ level: constants.Z_BEST_SPEED }),
          destination,
        ),
      dispose,
    };
  } catch (error) {
    await dispose();
    throw error;
  }
}

function archiveEntries(file: string) {
  const input = createReadStream(file);
  const gunzip = createGunzip();
  input.on("error", (error) => gunzip.destroy(error));
  return { entries: readTar(input.pipe(gunzip)), close: () => input.destroy() };
}

async function readAll(bytes: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of bytes) chunks.push(chunk);
  return Buffer.concat(chunks);
}

function parseManifest(text: string): BackupManifest {
  let value: Partial<BackupManifest>;
  try {
    value = JSON.parse(text) as Partial<BackupManifest>;
  } catch {
    throw new BackupError("The archive's manifest is not JSON");
  }
  if (value.format !== ARCHIVE_FORMAT || value.version !== ARCHIVE_VERSION) {
    throw new BackupError(
      `The archive is not an Heirloom backup this version reads (format ${String(value.format)}, version ${String(value.version)})`,
    );
  }
  if (!Array.isArray(value.tables) || !Array.isArray(value.migrations) || !value.uploads) {
    throw new BackupError("The archive's manifest is incomplete");
  }
  return value as BackupManifest;
}

/** The archive's manifest (its first entry), read without going through the rest. */
export async function readManifest(file: string): Promise<BackupManifest> {
  const { entries, close } = archiveEntries(file);
  try {
    for await (const entry of entries) {
      if (entry.name !== MANIFEST_NAME) break;
      return parseManifest((await readAll(entry.bytes())).toString("utf8"));
    }
    throw new BackupError(`${file} is not an Heirloom backup: it does not start with its manifest`);
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(`${file} is not a readable backup: ${(error as Error).message}`);
  } finally {
    close();
  }
}

/** The lines of a byte stream (UTF-8). */
async function* lines(bytes: AsyncIterable<Buffer>): AsyncGenerator<string> {
  const decoder = new StringDecoder("utf8");
  let pending = "";
  for await (const chunk of bytes) {
    pending += decoder.write(chunk);
    const parts = pending.split("\n");
    pending = parts.pop()!;
    yield* parts;
  }
  pending += decoder.end();
  if (pending) yield pending;
}

/**
 * Reads the whole archive and checks it against its manifest: every table's row count, every
 * file's presence and the bytes in all. The gzip and tar checksums catch damaged bytes.
 */
export async function verifyArchive(file: string): Promise<BackupManifest> {
  const manifest = await readManifest(file);
  const { entries, close } = archiveEntries(file);
  const rows = new Map<string, number>();
  let files = 0;
  let bytes = 0;
  try {
    for await (const entry of entries) {
      if (entry.name === MANIFEST_NAME) continue;
      if (entry.name.startsWith("database/")) {
        let count = 0;
        for await (const line of lines(entry.bytes())) if (line) count += 1;
        rows.set(entry.name, count);
      } else if (entry.name.startsWith("uploads/")) {
        files += 1;
        bytes += entry.size;
      } else {
        throw new BackupError(`The archive holds an unexpected entry: ${entry.name}`);
      }
    }
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(`${file} is damaged: ${(error as Error).message}`);
  } finally {
    close();
  }
  for (const table of manifest.tables) {
    if (rows.get(table.file) !== table.rows) {
      throw new BackupError(
        `${file} is damaged: ${table.name} has ${rows.get(table.file) ?? 0} rows, its manifest says ${table.rows}`,
      );
    }
  }
  if (files !== manifest.uploads.files || bytes !== manifest.uploads.bytes) {
    throw new BackupError(
      `${file} is damaged: it holds ${files} image files (${bytes} bytes), its manifest says ${manifest.uploads.files} (${manifest.uploads.bytes})`,
    );
  }
  return manifest;
}

/** Whether a folder is absent or holds nothing. */
export async function isEmptyFolder(dir: string): Promise<boolean> {
  try {
    return (await fs.readdir(dir)).length === 0;
  } catch (error) {
    if (isMissing(error)) return true;
    throw error;
  }
}

/**
 * Restores an archive into an empty database and uploads folder: refused, before anything is
 * written, when the database holds a row or a migration the archive lacks, or the folder holds a
 * file. The schema is the archive's migrations (`migrate` applies them), then all rows go in one
 * transaction with the tables' own triggers off (so the rows are stored as they were, generation
 * counters included), and the images are written beside the uploads folder and moved into place
 * once the rows are committed. A damaged archive leaves no row and no file.
 */
export async function restoreBackup(options: {
  archive: string;
  db: BackupDatabase;
  uploadsDir: string;
  migrate: (migrations: string[]) => Promise<void>;
}): Promise<BackupManifest> {
  const manifest = await readManifest(options.archive);
  const { filled, applied } = await options.db.transaction(async (session) => ({
    filled: await tablesWithRows(session),
    applied: await appliedMigrations(session),
  }));
  if (filled.length > 0) {
    throw new BackupError(
      `The database is not empty (${filled.slice(0, 3).join(", ")}${filled.length > 3 ? ", …" : ""} hold rows). ` +
        "A restore never merges into or overwrites a database: restore into a new, empty one.",
    );
  }
  const unknown = applied.filter((name) => !manifest.migrations.includes(name));
  if (unknown.length > 0) {
    throw new BackupError(
      `The database has migrations the archive does not (${unknown.join(", ")}): restore into a new, empty database.`,
    );
  }
  if (!(await isEmptyFolder(options.uploadsDir))) {
    throw new BackupError(
      `The uploads folder ${options.uploadsDir} is not empty. A restore never merges images: move it aside or restore into a new DATA_DIR.`,
    );
  }
  await options.migrate(manifest.migrations);

  const incoming = `${options.uploadsDir}.restoring-${process.pid}`;
  await fs.rm(incoming, { recursive: true, force: true });
  await fs.mkdir(incoming, { recursive: true });
  try {
    await options.db.transaction(async (session) => {
      const tables = new Map(manifest.tables.map((t) => [t.file, t]));
      for (const table of manifest.tables) {
        await session.query(`ALTER TABLE ${quoteIdent(table.name)} DISABLE TRIGGER USER`);
      }
      const loaded = new Set<string>();
      let files = 0;
      let bytes = 0;
      const { entries, close } = archiveEntries(options.archive);
      try {
        for await (const entry of entries) {
          if (entry.name === MANIFEST_NAME) continue;
          const table = tables.get(entry.name);
          if (table) {
            const count = await loadRows(session, table.name, lines(entry.bytes()));
            if (count !== table.rows) {
              throw new BackupError(
                `The archive is damaged: ${table.name} has ${count} rows, its manifest says ${table.rows}`,
              );
            }
            loaded.add(table.file);
          } else if (entry.name.startsWith("uploads/")) {
            const target = path.join(incoming, entry.name.slice("uploads/".length));
            await fs.mkdir(path.dirname(target), { recursive: true });
            await pipeline(Readable.from(entry.bytes()), createWriteStream(target));
            files += 1;
            bytes += entry.size;
          } else {
            throw new BackupError(`The archive holds an unexpected entry: ${entry.name}`);
          }
        }
      } catch (error) {
        if (error instanceof BackupError) throw error;
        throw new BackupError(`The archive is damaged: ${(error as Error).message}`);
      } finally {
        close();
      }
      const absent = manifest.tables.filter((t) => !loaded.has(t.file)).map((t) => t.name);
      if (absent.length > 0) {
        throw new BackupError(`The archive is damaged: it lacks the rows of ${absent.join(", ")}`);
      }
      if (files !== manifest.uploads.files || bytes !== manifest.uploads.bytes) {
        throw new BackupError(
          `The archive is damaged: it holds ${files} image files, its manifest says ${manifest.uploads.files}`,
        );
      }
      for (const sequence of manifest.sequences) {
        if (sequence.lastValue === null) continue;
        await session.query(`SELECT setval($1, $2::bigint)`, [
          quoteIdent(sequence.name),
          sequence.lastValue,
        ]);
      }
      for (const table of manifest.tables) {
        await session.query(`ALTER TABLE ${quoteIdent(table.name)} ENABLE TRIGGER USER`);
      }
    });
    // Empty (checked above): rmdir refuses, rather than drops, a file written there since.
    await fs.rmdir(options.uploadsDir).catch((error: unknown) => {
      if (!isMissing(error)) throw error;
    });
    await fs.rename(incoming, options.uploadsDir);
  } catch (error) {
    await fs.rm(incoming, { recursive: true, force: true });
    throw error;
  }
  return manifest;
}
