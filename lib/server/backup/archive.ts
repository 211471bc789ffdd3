// Backup archives (ADR 033): one .tar.gz holding a manifest, the database as one JSON line per row
// and table, and the local uploads (with every image the snapshot's Upload rows name). Made by the process that
// can reach the database consistently (the server holding PGlite, or anyone on PostgreSQL), and
// restored into an empty database and uploads folder only.
import { createHash, randomUUID } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable, type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { StringDecoder } from "node:string_decoder";
import { constants, createGunzip, createGzip } from "node:zlib";
import {
  appliedMigrations,
  applyMigrationScripts,
  type BackupDatabase,
  foreignKeyParents,
  loadRows,
  lockMigrations,
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
/** The last entry: every image file's key, size and SHA-256, one JSON line each. */
export const UPLOADS_INDEX = "uploads-index.jsonl";
/**
 * The manifest is read whole, so it is capped: a real one is a few KB (plus 40-odd bytes per
 * missing image), and an archive whose manifest inflates past this is refused unread.
 */
export const MAX_MANIFEST_BYTES = 8 * 1024 * 1024;
/** One row's JSON at most (a published tree of 100,000 Sims is tens of MB). */
export const MAX_ROW_BYTES = 256 * 1024 * 1024;

/** Where images live: only local ones are in the archive (docs/reference.md, "Backups"). */
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
    /** True when the backup was asked to leave the images out (--no-uploads). */
    omitted?: boolean;
    /** The entry listing each image file with its size and SHA-256 (UPLOADS_INDEX), if any. */
    index?: typeof UPLOADS_INDEX;
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

/** Folders of files that are not an image's original: its variants, writes in flight, cards. */
const NOT_ORIGINALS = /^(variants|incoming|og)\//;

/**
 * Refuses to archive an uploads folder that is not the database's: the database names the images
 * it stored, so at least half of those must be found there, and at least half of the originals
 * found there must be images the database knows. Another site's folder (a DATABASE_URL backup
 * run without the server's DATA_DIR takes the default `.data/uploads`) shares no name with it,
 * since image names are random; a site that lost a few files still passes, and its missing files
 * are named in the manifest.
 */
function assertUploadsBelong(found: {
  uploadsDir: string;
  stored: Set<string>;
  known: Set<string>;
  missing: string[];
  files: string[];
}): void {
  const present = found.stored.size - found.missing.length;
  const originals = found.files.filter((key) => !NOT_ORIGINALS.test(key));
  const strangers = originals.filter(
    (key) => !found.known.has(key) && !found.known.has(key.replace(/\.webp$/, "")),
  );
  const lacking = found.stored.size > 0 && present * 2 < found.stored.size;
  const foreign = originals.length > 0 && strangers.length * 2 > originals.length;
  if (!lacking && !foreign) return;
  throw new BackupError(
    `The images in ${found.uploadsDir} do not belong to this database: ` +
      `${present} of the ${found.stored.size} image(s) it stored are there, and ` +
      `${strangers.length} of the ${originals.length} image(s) there are unknown to it` +
      `${strangers.length > 0 ? ` (such as ${strangers[0]})` : ""}. ` +
      "Run the backup with the server's DATA_DIR (the folder that holds its uploads), or add " +
      "--no-uploads to back up the database alone.",
  );
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
  /** Leave the local images out (--no-uploads): the archive holds the database alone. */
  omitUploads?: boolean;
  now?: () => Date;
}): Promise<PreparedBackup> {
  const uploadsDir = options.omitUploads ? null : options.uploadsDir;
  await removeDeadStagings(options.tmpDir);
  const staging = path.join(options.tmpDir, `backup-${process.pid}-${randomUUID()}`);
  const stagedUploads = path.join(staging, "uploads");
  const dispose = () => fs.rm(staging, { recursive: true, force: true });
  await fs.mkdir(path.join(staging, "database"), { recursive: true, mode: 0o700 });
  try {
    const staged = new Set<string>();
    if (uploadsDir) {
      for (const key of await listFiles(uploadsDir)) {
        if (await keep(path.join(uploadsDir, key), path.join(stagedUploads, key))) {
          staged.add(key);
        }
      }
    }
    const stored = new Set<string>();
    /** Every image the database knows, stored or not. */
    const known = new Set<string>();
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
              known.add(upload.id);
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
    if (uploadsDir) {
      for (const name of stored) {
        if (files.has(name) || files.has(`${name}.webp`)) continue;
        let found = false;
        for (const key of [`${name}.webp`, name]) {
          if (await keep(path.join(uploadsDir, key), path.join(stagedUploads, key))) {
            files.set(key, 0);
            found = true;
            break;
          }
        }
        if (!found) missing.push(name);
      }
      assertUploadsBelong({ uploadsDir, stored, known, missing, files: [...files.keys()] });
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
        ...(options.omitUploads ? { omitted: true } : {}),
        index: UPLOADS_INDEX,
      },
      snapshotMs: Math.round(snapshotMs),
    };
    const fileSource = (name: string, full: string, size: number): TarSource => ({
      name,
      size,
      bytes: () => createReadStream(full, { highWaterMark: 1 << 20 }),
    });
    /** Each image file's SHA-256, taken as it goes into the archive (read once). */
    const hashes = new Map<string, string>();
    const uploadSource = (key: string, size: number): TarSource => ({
      name: `uploads/${key}`,
      size,
      bytes: async function* () {
        const hash = createHash("sha256");
        for await (const chunk of createReadStream(path.join(stagedUploads, key), {
          highWaterMark: 1 << 20,
        })) {
          hash.update(chunk as Buffer);
          yield chunk as Buffer;
        }
        hashes.set(key, hash.digest("hex"));
      },
    });
    const sortedFiles = [...files].sort(([a], [b]) => (a < b ? -1 : 1));
    function* sources(): Generator<TarSource> {
      const json = Buffer.from(JSON.stringify(manifest, null, 2) + "\n");
      yield { name: MANIFEST_NAME, size: json.length, bytes: () => [json] };
      for (const table of manifest.tables) {
        yield fileSource(table.file, path.join(staging, table.file), table.bytes);
      }
      for (const [key, size] of sortedFiles) yield uploadSource(key, size);
      // Asked for once the last file went in (writeTar reads each source whole before the next).
      const index = Buffer.from(
        sortedFiles
          .map(([key, size]) => `${JSON.stringify({ key, size, sha256: hashes.get(key) })}\n`)
          .join(""),
      );
      yield { name: UPLOADS_INDEX, size: index.length, bytes: () => [index] };
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

/** The bytes of a stream, refused past `max`. */
async function readAll(bytes: AsyncIterable<Buffer>, max: number, what: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of bytes) {
    length += chunk.length;
    if (length > max) throw new BackupError(`${what} is larger than ${max} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Refuses a name from the manifest that could reach outside the place it names: a migration's
 * folder, a table (and its file `database/<name>.jsonl`), a sequence, an image's key. No NUL or
 * other control character, no backslash, no `..`, at most `max` bytes; a slash only in an image
 * key (`avatar/<id>.png`), between non-empty parts, never first.
 */
function assertSafeName(kind: string, name: unknown, max: number, slashes = false): string {
  const unsafe =
    typeof name !== "string" ||
    name.length === 0 ||
    Buffer.byteLength(name) > max ||
    CONTROL.test(name) ||
    name.includes("\\") ||
    name.includes("..") ||
    (slashes
      ? name.split("/").some((part) => part === "" || part === ".")
      : name.includes("/") || name === ".");
  if (unsafe) {
    throw new BackupError(
      `The archive's manifest names an unsafe ${kind} name: ${JSON.stringify(String(name).slice(0, 120))}`,
    );
  }
  return name;
}

const isCount = (value: unknown): value is number =>
  typeof value === "number" && Number.isSafeInteger(value) && value >= 0;

/** PostgreSQL's identifiers are at most 63 bytes; Prisma's migration names 255. */
const MAX_IDENTIFIER = 63;
const MAX_MIGRATION_NAME = 255;
const MAX_KEY = 1_000;

function parseManifest(text: string): BackupManifest {
  let value: Partial<BackupManifest>;
  try {
    value = JSON.parse(text) as Partial<BackupManifest>;
  } catch {
    throw new BackupError("The archive's manifest is not JSON");
  }
  if (value === null || typeof value !== "object") {
    throw new BackupError("The archive's manifest is not JSON");
  }
  if (value.format !== ARCHIVE_FORMAT || value.version !== ARCHIVE_VERSION) {
    throw new BackupError(
      `The archive is not an Heirloom backup this version reads (format ${String(value.format)}, version ${String(value.version)})`,
    );
  }
  const { tables, migrations, sequences, uploads, counts } = value;
  if (
    !Array.isArray(tables) ||
    !Array.isArray(migrations) ||
    !Array.isArray(sequences) ||
    !uploads ||
    typeof uploads !== "object" ||
    !counts ||
    typeof counts !== "object" ||
    typeof value.createdAt !== "string" ||
    Number.isNaN(Date.parse(value.createdAt)) ||
    (value.engine !== "postgresql" && value.engine !== "pglite")
  ) {
    throw new BackupError("The archive's manifest is incomplete");
  }
  const unique = (kind: string, names: string[]) => {
    const seen = new Set<string>();
    for (const name of names) {
      if (seen.has(name))
        throw new BackupError(`The archive's manifest names the ${kind} ${name} twice`);
      seen.add(name);
    }
  };
  for (const name of migrations) assertSafeName("migration", name, MAX_MIGRATION_NAME);
  unique("migration", migrations);
  for (const table of tables as unknown[]) {
    const t = (table ?? {}) as Partial<BackupManifest["tables"][number]>;
    const name = assertSafeName("table", t.name, MAX_IDENTIFIER);
    if (t.file !== `database/${name}.jsonl` || !isCount(t.rows) || !isCount(t.bytes)) {
      throw new BackupError(`The archive's manifest describes the table ${name} wrongly`);
    }
  }
  unique(
    "table",
    tables.map((t) => t.name),
  );
  for (const sequence of sequences as unknown[]) {
    const q = (sequence ?? {}) as Partial<BackupManifest["sequences"][number]>;
    assertSafeName("sequence", q.name, MAX_IDENTIFIER);
    if (
      q.lastValue !== null &&
      !(typeof q.lastValue === "string" && /^-?\d{1,20}$/.test(q.lastValue))
    ) {
      throw new BackupError(`The archive's manifest gives the sequence ${q.name} a wrong value`);
    }
  }
  if (
    !["local", "s3", "vercel-blob"].includes(uploads.store) ||
    !isCount(uploads.files) ||
    !isCount(uploads.bytes) ||
    !Array.isArray(uploads.missing) ||
    (uploads.omitted !== undefined && uploads.omitted !== true) ||
    (uploads.index !== undefined && uploads.index !== UPLOADS_INDEX)
  ) {
    throw new BackupError("The archive's manifest describes its images wrongly");
  }
  for (const name of uploads.missing) assertSafeName("upload", name, MAX_KEY, true);
  for (const key of ["players", "trees", "people", "images", "publications"] as const) {
    if (!isCount(counts[key])) throw new BackupError("The archive's manifest is incomplete");
  }
  return value as BackupManifest;
}

/**
 * The archive's manifest (its first entry), read without going through the rest, and checked:
 * at most MAX_MANIFEST_BYTES (refused from its header, before a byte of it is inflated), every
 * name in it safe.
 */
export async function readManifest(file: string): Promise<BackupManifest> {
  const { entries, close } = archiveEntries(file);
  try {
    for await (const entry of entries) {
      if (entry.name !== MANIFEST_NAME) break;
      const what = `${file}'s manifest`;
      if (entry.size > MAX_MANIFEST_BYTES) {
        throw new BackupError(
          `${what} is larger than ${MAX_MANIFEST_BYTES / 2 ** 20} MB (${entry.size} bytes): not an Heirloom backup`,
        );
      }
      return parseManifest(
        (await readAll(entry.bytes(), MAX_MANIFEST_BYTES, what)).toString("utf8"),
      );
    }
    throw new BackupError(`${file} is not an Heirloom backup: it does not start with its manifest`);
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(`${file} is not a readable backup: ${(error as Error).message}`);
  } finally {
    close();
  }
}

/** The lines of a byte stream (UTF-8); a line longer than MAX_ROW_BYTES is refused. */
async function* lines(bytes: AsyncIterable<Buffer>, what: string): AsyncGenerator<string> {
  const decoder = new StringDecoder("utf8");
  let pending: string[] = [];
  let pendingLength = 0;
  for await (const chunk of bytes) {
    const text = decoder.write(chunk);
    let start = 0;
    for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", start)) {
      pending.push(text.slice(start, end));
      yield pending.length === 1 ? pending[0]! : pending.join("");
      pending = [];
      pendingLength = 0;
      start = end + 1;
    }
    if (start < text.length) {
      pending.push(start === 0 ? text : text.slice(start));
      pendingLength += text.length - start;
      if (pendingLength > MAX_ROW_BYTES) {
        throw new BackupError(`${what} holds a row longer than ${MAX_ROW_BYTES / 2 ** 20} MB`);
      }
    }
  }
  const last = pending.join("") + decoder.end();
  if (last) yield last;
}

/** The bytes of a stream, passed on, with their SHA-256 and count once the stream ends. */
function hashing(bytes: AsyncIterable<Buffer>) {
  const hash = createHash("sha256");
  const result = { size: 0, sha256: "" };
  async function* pass() {
    for await (const chunk of bytes) {
      hash.update(chunk);
      result.size += chunk.length;
      yield chunk;
    }
    result.sha256 = hash.digest("hex");
  }
  return { bytes: pass(), result };
}

interface IndexedFile {
  size: number;
  sha256: string;
}

/** The uploads index's lines, as a map from key to size and SHA-256. */
async function readIndex(bytes: AsyncIterable<Buffer>): Promise<Map<string, IndexedFile>> {
  const index = new Map<string, IndexedFile>();
  let n = 0;
  for await (const line of lines(bytes, UPLOADS_INDEX)) {
    n += 1;
    if (!line) continue;
    let value: { key?: unknown; size?: unknown; sha256?: unknown };
    try {
      value = JSON.parse(line) as typeof value;
    } catch {
      throw new BackupError(`The archive's ${UPLOADS_INDEX} is damaged (line ${n})`);
    }
    const key = assertSafeName("upload", value.key, MAX_KEY, true);
    if (
      !isCount(value.size) ||
      typeof value.sha256 !== "string" ||
      !/^[0-9a-f]{64}$/.test(value.sha256)
    ) {
      throw new BackupError(`The archive's ${UPLOADS_INDEX} is damaged (line ${n})`);
    }
    index.set(key, { size: value.size, sha256: value.sha256 });
  }
  return index;
}

/** The differences between the image files found and the index, as sentences. */
function indexProblems(index: Map<string, IndexedFile>, files: Map<string, IndexedFile>): string[] {
  const problems: string[] = [];
  for (const [key, expected] of index) {
    const got = files.get(key);
    if (!got) problems.push(`the image file ${key} is missing`);
    else if (got.size !== expected.size) {
      problems.push(`the image file ${key} has ${got.size} bytes, the index says ${expected.size}`);
    } else if (got.sha256 !== expected.sha256) {
      problems.push(`the image file ${key} has another SHA-256 than the index's (damaged)`);
    }
  }
  for (const key of files.keys()) {
    if (!index.has(key)) problems.push(`the image file ${key} is not in the index`);
  }
  return problems;
}

export interface VerifyReport {
  manifest: BackupManifest;
  tables: number;
  rows: number;
  files: number;
  bytes: number;
  /** What is wrong, one sentence each (at most MAX_PROBLEMS, then a count of the rest). */
  problems: string[];
}

const MAX_PROBLEMS = 20;

/**
 * Reads the whole archive and checks it against its manifest, writing nothing: every name, every
 * table's rows (each line a JSON object, the count the manifest's), every image file (present,
 * with the size and SHA-256 of the archive's index when it has one, the count and bytes the
 * manifest's), and nothing else in it. The gzip and tar checksums catch damaged bytes.
 */
export async function verifyArchive(file: string): Promise<VerifyReport> {
  const manifest = await readManifest(file);
  const byFile = new Map(manifest.tables.map((t) => [t.file, t]));
  const rows = new Map<string, number>();
  const files = new Map<string, IndexedFile>();
  let index: Map<string, IndexedFile> | undefined;
  const problems: string[] = [];
  let first = true;
  const { entries, close } = archiveEntries(file);
  try {
    for await (const entry of entries) {
      if (first) {
        first = false;
        continue; // the manifest, read above
      }
      const table = byFile.get(entry.name);
      if (table) {
        if (rows.has(entry.name)) problems.push(`${entry.name} is in the archive twice`);
        let count = 0;
        let bad = 0;
        for await (const line of lines(entry.bytes(), entry.name)) {
          if (!line) continue;
          count += 1;
          let row: unknown;
          try {
            row = JSON.parse(line);
          } catch {
            row = undefined;
          }
          if (row === null || typeof row !== "object" || Array.isArray(row)) {
            if (bad++ === 0) problems.push(`${table.name}: line ${count} is not a JSON row`);
          }
        }
        if (bad > 1) problems.push(`${table.name}: ${bad} lines in all are not JSON rows`);
        rows.set(entry.name, count);
      } else if (entry.name.startsWith("uploads/")) {
        const key = entry.name.slice("uploads/".length);
        if (files.has(key)) problems.push(`the image file ${key} is in the archive twice`);
        const { bytes, result } = hashing(entry.bytes());
        for await (const chunk of bytes) void chunk;
        files.set(key, { ...result });
      } else if (entry.name === UPLOADS_INDEX && manifest.uploads.index && !index) {
        index = await readIndex(entry.bytes());
      } else {
        problems.push(`the archive holds an unexpected entry: ${entry.name}`);
      }
    }
  } catch (error) {
    problems.push(
      error instanceof BackupError
        ? error.message
        : `the archive is damaged: ${(error as Error).message}`,
    );
  } finally {
    close();
  }
  for (const table of manifest.tables) {
    const found = rows.get(table.file);
    if (found === undefined) problems.push(`the rows of ${table.name} are missing`);
    else if (found !== table.rows) {
      problems.push(`${table.name} has ${found} rows, the manifest says ${table.rows}`);
    }
  }
  const bytes = [...files.values()].reduce((sum, f) => sum + f.size, 0);
  if (files.size !== manifest.uploads.files || bytes !== manifest.uploads.bytes) {
    problems.push(
      `it holds ${files.size} image file(s) (${bytes} bytes), the manifest says ${manifest.uploads.files} (${manifest.uploads.bytes} bytes)`,
    );
  }
  if (manifest.uploads.index) {
    if (!index) problems.push(`its index of image files (${UPLOADS_INDEX}) is missing`);
    else problems.push(...indexProblems(index, files));
  }
  const shown =
    problems.length > MAX_PROBLEMS
      ? [...problems.slice(0, MAX_PROBLEMS), `and ${problems.length - MAX_PROBLEMS} more`]
      : problems;
  return {
    manifest,
    tables: rows.size,
    rows: [...rows.values()].reduce((sum, n) => sum + n, 0),
    files: files.size,
    bytes,
    problems: shown,
  };
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

/** The scripts of the archive's migrations, from this checkout's folder; a name unknown here is a newer Heirloom's. */
async function migrationScripts(
  migrationsDir: string,
  names: string[],
): Promise<Map<string, string>> {
  const present = new Set(
    (await fs.readdir(migrationsDir, { withFileTypes: true }))
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name),
  );
  const scripts = new Map<string, string>();
  for (const name of names) {
    // Only a folder listed in migrationsDir: the name is never made into a path otherwise.
    if (!present.has(name)) {
      throw new BackupError(
        `The archive was made by a newer Heirloom (its migration ${name} is not known here): update this checkout, then restore.`,
      );
    }
    scripts.set(name, await fs.readFile(path.join(migrationsDir, name, "migration.sql"), "utf8"));
  }
  return scripts;
}

/**
 * Restores an archive into an empty database and uploads folder, in one transaction: refused,
 * before anything is written, when the database holds a row or a migration the archive lacks, or
 * the folder holds a file. Inside the transaction the archive's migrations are applied (and
 * recorded as Prisma's schema engine records them), then the rows go in with the tables' own
 * triggers off (so they are stored as they were, generation counters included), each table after
 * the tables its foreign keys name, whatever the archive's order (a table that comes early waits
 * in `workDir`). The images are written beside the uploads folder, checked against the archive's
 * index, and moved into place once the rows are committed. A damaged archive leaves the database
 * and the folders exactly as they were.
 */
export async function restoreBackup(options: {
  archive: string;
  db: BackupDatabase;
  uploadsDir: string;
  /** This checkout's prisma/migrations. */
  migrationsDir: string;
  /** Where a table that comes before its parents waits (a folder of its own is made inside). */
  tmpDir: string;
  /** Runs once the rows are committed, before the images are moved into place. */
  afterCommit?: () => Promise<void>;
}): Promise<BackupManifest> {
  const manifest = await readManifest(options.archive);
  const scripts = await migrationScripts(options.migrationsDir, manifest.migrations);
  if (!(await isEmptyFolder(options.uploadsDir))) {
    throw new BackupError(
      `The uploads folder ${options.uploadsDir} is not empty. A restore never merges images: move it aside or restore into a new DATA_DIR.`,
    );
  }
  const incoming = `${options.uploadsDir}.restoring-${process.pid}`;
  let waiting: string | undefined;
  await fs.rm(incoming, { recursive: true, force: true });
  try {
    await fs.mkdir(incoming, { recursive: true, mode: 0o700 });
    await options.db.transaction(async (session) => {
      await lockMigrations(session);
      const filled = await tablesWithRows(session);
      if (filled.length > 0) {
        throw new BackupError(
          `The database is not empty (${filled.slice(0, 3).join(", ")}${filled.length > 3 ? ", …" : ""} hold rows). ` +
            "A restore never merges into or overwrites a database: restore into a new, empty one.",
        );
      }
      const applied = await appliedMigrations(session);
      const unknown = applied.filter((name) => !scripts.has(name));
      if (unknown.length > 0) {
        throw new BackupError(
          `The database has migrations the archive does not (${unknown.join(", ")}): restore into a new, empty database.`,
        );
      }
      await applyMigrationScripts(
        session,
        manifest.migrations
          .filter((name) => !applied.includes(name))
          .map((name) => ({ name, script: scripts.get(name)! })),
      );

      const tables = new Map(manifest.tables.map((t) => [t.file, t]));
      const inArchive = new Set(manifest.tables.map((t) => t.name));
      const parents = await foreignKeyParents(session);
      for (const table of manifest.tables) {
        await session.query(`ALTER TABLE ${quoteIdent(table.name)} DISABLE TRIGGER USER`);
      }
      const loaded = new Set<string>();
      const ready = (name: string) =>
        [...(parents.get(name) ?? [])].every(
          (parent) => loaded.has(parent) || !inArchive.has(parent),
        );
      const load = async (table: BackupManifest["tables"][number], rows: AsyncIterable<string>) => {
        const count = await loadRows(session, table.name, rows);
        if (count !== table.rows) {
          throw new BackupError(
            `The archive is damaged: ${table.name} has ${count} rows, its manifest says ${table.rows}`,
          );
        }
        loaded.add(table.name);
      };
      /** Tables that came before a table they name, kept in `waiting` until it is loaded. */
      const early = new Map<string, BackupManifest["tables"][number]>();
      const loadWaiting = async () => {
        for (let again = true; again;) {
          again = false;
          for (const [file, table] of early) {
            if (!ready(table.name)) continue;
            early.delete(file);
            const staged = path.join(waiting!, `${table.name}.jsonl`);
            await load(table, lines(createReadStream(staged), file));
            await fs.rm(staged);
            again = true;
          }
        }
      };
      const seen = new Set<string>();
      const written = new Map<string, IndexedFile>();
      let index: Map<string, IndexedFile> | undefined;
      let first = true;
      const { entries, close } = archiveEntries(options.archive);
      try {
        for await (const entry of entries) {
          if (first) {
            first = false; // the manifest, read above
            continue;
          }
          const table = tables.get(entry.name);
          if (table) {
            if (seen.has(entry.name))
              throw new BackupError(`The archive holds ${entry.name} twice`);
            seen.add(entry.name);
            if (ready(table.name)) {
              await load(table, lines(entry.bytes(), entry.name));
              await loadWaiting();
            } else {
              waiting ??= await fs.mkdtemp(path.join(options.tmpDir, "heirloom-restore-"));
              await pipeline(
                Readable.from(entry.bytes()),
                createWriteStream(path.join(waiting, `${table.name}.jsonl`), { mode: 0o600 }),
              );
              early.set(entry.name, table);
            }
          } else if (entry.name.startsWith("uploads/")) {
            const key = entry.name.slice("uploads/".length);
            const target = path.resolve(incoming, key);
            if (!target.startsWith(incoming + path.sep) || written.has(key)) {
              throw new BackupError(`The archive holds an unsafe or repeated image: ${key}`);
            }
            await fs.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
            const { bytes, result } = hashing(entry.bytes());
            await pipeline(
              Readable.from(bytes),
              createWriteStream(target, { flags: "wx", mode: 0o600 }),
            );
            written.set(key, { ...result });
          } else if (entry.name === UPLOADS_INDEX && manifest.uploads.index && !index) {
            index = await readIndex(entry.bytes());
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
      if (early.size > 0) {
        throw new BackupError(
          `The archive's tables name each other in a circle (${[...early.values()].map((t) => t.name).join(", ")})`,
        );
      }
      const absent = manifest.tables.filter((t) => !seen.has(t.file)).map((t) => t.name);
      if (absent.length > 0) {
        throw new BackupError(`The archive is damaged: it lacks the rows of ${absent.join(", ")}`);
      }
      const bytes = [...written.values()].reduce((sum, f) => sum + f.size, 0);
      if (written.size !== manifest.uploads.files || bytes !== manifest.uploads.bytes) {
        throw new BackupError(
          `The archive is damaged: it holds ${written.size} image files, its manifest says ${manifest.uploads.files}`,
        );
      }
      if (manifest.uploads.index) {
        const problems = index
          ? indexProblems(index, written)
          : [`its index of image files (${UPLOADS_INDEX}) is missing`];
        if (problems.length > 0) throw new BackupError(`The archive is damaged: ${problems[0]}`);
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
    await options.afterCommit?.();
    // Empty (checked above): rmdir refuses, rather than drops, a file written there since.
    await fs.rmdir(options.uploadsDir).catch((error: unknown) => {
      if (!isMissing(error)) throw error;
    });
    await fs.rename(incoming, options.uploadsDir);
  } catch (error) {
    await fs.rm(incoming, { recursive: true, force: true });
    throw error;
  } finally {
    if (waiting) await fs.rm(waiting, { recursive: true, force: true });
  }
  return manifest;
}

/**
 * Keeps the newest `keep` archives of `folder` and removes the others: only files whose first
 * entry is an Heirloom manifest count (any other file, or a backup being written, is left alone),
 * newest by the manifest's time. Answers the names removed.
 */
export async function pruneArchives(folder: string, keep: number): Promise<string[]> {
  const archives: { name: string; createdAt: number }[] = [];
  for (const entry of await fs.readdir(folder, { withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".tar.gz")) continue;
    try {
      const manifest = await readManifest(path.join(folder, entry.name));
      archives.push({ name: entry.name, createdAt: Date.parse(manifest.createdAt) });
    } catch {
      // not one of ours
    }
  }
  archives.sort((a, b) => b.createdAt - a.createdAt || (a.name < b.name ? 1 : -1));
  const removed = archives.slice(keep).map((a) => a.name);
  for (const name of removed) await fs.rm(path.join(folder, name), { force: true });
  return removed;
}
