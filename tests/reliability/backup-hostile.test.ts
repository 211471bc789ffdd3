// Backups against hostile archives and the operator's mistakes (issue 32, ADR 033), on both
// engines: `npm run restore` refuses unsafe names in a manifest and a manifest that inflates past
// its cap (in bounded memory), leaves the target exactly as it was when the archive is cut off,
// loads tables in the foreign keys' order whatever the archive's, and exits as soon as it is done;
// `npm run backup` refuses uploads that are not the database's (unless --no-uploads), `--verify`
// checks an archive completely without writing anything, and `--keep N` keeps the newest N.
// No app server: each site is made by migrating an empty database and inserting rows and files.
import { spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { readTar, writeTar } from "@/lib/server/backup/tar";
import { applyMigrations } from "@/scripts/lib/schema-engine";
import { createDatabase, dropDatabase, removeTempDirs, tempDir } from "./support/server";

const ROOT = path.resolve(import.meta.dirname, "../..");
const MANIFEST = "heirloom-backup.json";
/** The hostile manifest's inflated size: far past the cap, and far past the memory bound below. */
const HUGE_MANIFEST_BYTES = 600 * 1024 * 1024;
/** The restore's peak memory while it refuses that manifest (a process alone is ~150 MB here). */
const MEMORY_BOUND_KB = 450 * 1024;
/**
 * How long the restore may take to exit after it printed "Restored": it took 9.3 s (PostgreSQL,
 * the schema engine's pool) and 6.8 s (PGlite) before. Now its own exit comes within 20 ms of the
 * line; the rest is the process's teardown (PGlite's memory), up to 2.5 s on this busy machine.
 */
const EXIT_AFTER_RESTORED_MS = 4_000;

const ENGINES = [{ engine: "PostgreSQL" as const }, { engine: "PGlite" as const }];
const databases: string[] = [];
let databaseCount = 0;

afterAll(async () => {
  for (const name of databases) await dropDatabase(name);
  removeTempDirs();
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Milliseconds from "Restored" on stdout to the exit, when it was printed. */
  exitAfterRestoredMs?: number;
  /** The process's peak resident memory (GNU time), in KB. */
  maxRssKb: number;
}

/** Runs an npm script's file as `npm run` would (tsx, one process under GNU time). */
function runScript(
  script: string,
  args: string[],
  env: { dataDir: string; databaseUrl?: string; tmpDir?: string },
): Promise<Run> {
  const rssFile = path.join(tempDir("rss"), "rss");
  const child = spawn(
    "/usr/bin/time",
    ["-f", "%M", "-o", rssFile, process.execPath, "--import", "tsx", script, ...args],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: "production",
        DATA_DIR: env.dataDir,
        DATABASE_URL: env.databaseUrl ?? "",
        LOG_LEVEL: "warn",
        ...(env.tmpDir ? { TMPDIR: env.tmpDir } : {}),
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let stdout = "";
  let stderr = "";
  let restoredAt: number | undefined;
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
    if (restoredAt === undefined && /^Restored /m.test(stdout)) restoredAt = performance.now();
  });
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) =>
    child.on("exit", (code) =>
      resolve({
        code,
        stdout,
        stderr,
        exitAfterRestoredMs: restoredAt === undefined ? undefined : performance.now() - restoredAt,
        maxRssKb: Number(fs.readFileSync(rssFile, "utf8").trim().split("\n").pop()),
      }),
    ),
  );
}

type Query = (text: string, values?: unknown[]) => Promise<Record<string, unknown>[]>;

/** A target: a fresh PostgreSQL database (with its DATA_DIR for uploads), or a fresh DATA_DIR. */
interface Target {
  dataDir: string;
  databaseUrl?: string;
}

async function freshTarget(engine: "PostgreSQL" | "PGlite", prefix: string): Promise<Target> {
  const dataDir = path.join(tempDir(prefix), "data");
  if (engine === "PGlite") return { dataDir };
  const name = `heirloom_b32_${process.pid}_${++databaseCount}`;
  databases.push(name);
  return { dataDir, databaseUrl: await createDatabase(name) };
}

async function withDatabase<T>(target: Target, work: (query: Query) => Promise<T>): Promise<T> {
  if (target.databaseUrl) {
    const client = new pg.Client({ connectionString: target.databaseUrl });
    await client.connect();
    try {
      return await work(
        async (text, values) => (await client.query<Record<string, unknown>>(text, values)).rows,
      );
    } finally {
      await client.end();
    }
  }
  const pglite = new PGlite(path.join(target.dataDir, "pglite"));
  try {
    return await work(async (text, values) => (await pglite.query(text, values)).rows as never);
  } finally {
    await pglite.close();
  }
}

interface Site extends Target {
  images: string[];
}

/** A migrated site: 2 players, 2 trees, 6 Sims, 4 of them pictured (rows and files). */
async function makeSite(engine: "PostgreSQL" | "PGlite"): Promise<Site> {
  const target = await freshTarget(engine, "site");
  await applyMigrations({
    target: target.databaseUrl
      ? { databaseUrl: target.databaseUrl }
      : { pgliteDir: path.join(target.dataDir, "pglite") },
    migrationsDir: path.join(ROOT, "prisma/migrations"),
    schemaPath: path.join(ROOT, "prisma/schema.prisma"),
  });
  const images: string[] = [];
  await withDatabase(target, async (query) => {
    for (let p = 0; p < 2; p++) {
      const user = randomUUID();
      await query(
        `INSERT INTO "User" (id, email, "passwordHash", "updatedAt") VALUES ($1, $2, 'x', now())`,
        [user, `hostile-${p}-${user}@example.com`],
      );
      const tree = randomUUID();
      await query(
        `INSERT INTO "Tree" (id, "ownerId", title, data, "updatedAt") VALUES ($1, $2, $3, '{}', now())`,
        [tree, user, `Legacy ${p}`],
      );
      for (let s = 0; s < 3; s++) {
        const avatar = s < 2 ? `avatar/${randomUUID()}.png` : null;
        if (avatar) {
          await query(
            `INSERT INTO "Upload" (id, "ownerId", dir, "contentType", status, "urlExpiresAt", "updatedAt")
             VALUES ($1, $2, 'avatar', 'image/png', 'USED', now(), now())`,
            [avatar, user],
          );
          const file = path.join(target.dataDir, "uploads", `${avatar}.webp`);
          fs.mkdirSync(path.dirname(file), { recursive: true });
          fs.writeFileSync(file, randomBytes(20_000 + s * 1_000));
          images.push(avatar);
        }
        await query(
          `INSERT INTO "Person" (id, "treeId", avatar, "firstName", "updatedAt") VALUES ($1, $2, $3, $4, now())`,
          [randomUUID(), tree, avatar, `Sim ${s}`],
        );
      }
    }
  });
  return { ...target, images };
}

interface Entry {
  name: string;
  bytes: Buffer;
}

async function readArchive(file: string): Promise<Entry[]> {
  const entries: Entry[] = [];
  for await (const entry of readTar(fs.createReadStream(file).pipe(createGunzip()))) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry.bytes()) chunks.push(chunk);
    entries.push({ name: entry.name, bytes: Buffer.concat(chunks) });
  }
  return entries;
}

async function writeArchive(file: string, entries: Entry[]): Promise<void> {
  const sources = entries.map((e) => ({
    name: e.name,
    size: e.bytes.length,
    bytes: () => [e.bytes],
  }));
  await pipeline(Readable.from(writeTar(sources)), createGzip(), fs.createWriteStream(file));
}

type Manifest = Record<string, unknown> & {
  migrations: string[];
  tables: { name: string; file: string; rows: number }[];
  uploads: Record<string, unknown>;
  createdAt: string;
};

const manifestOf = (entries: Entry[]) =>
  JSON.parse(entries.find((e) => e.name === MANIFEST)!.bytes.toString()) as Manifest;

/** A copy of `archive` with its manifest and entries changed by `change`. */
async function repack(
  archive: string,
  name: string,
  change: (manifest: Manifest, entries: Entry[]) => Entry[],
): Promise<string> {
  const entries = await readArchive(archive);
  const manifest = manifestOf(entries);
  const rest = change(
    manifest,
    entries.filter((e) => e.name !== MANIFEST),
  );
  const file = path.join(tempDir("repacked"), name);
  await writeArchive(file, [
    { name: MANIFEST, bytes: Buffer.from(JSON.stringify(manifest, null, 2)) },
    ...rest,
  ]);
  return file;
}

/** Every path under `dir` with its size (directories as -1), or null when it does not exist. */
function listing(dir: string): Record<string, number> | null {
  if (!fs.existsSync(dir)) return null;
  const found: Record<string, number> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    const stat = fs.statSync(path.join(dir, entry));
    found[entry] = stat.isDirectory() ? -1 : stat.size;
  }
  return found;
}

/** The tables of the target's public schema (PostgreSQL). */
async function tablesOf(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`,
    );
    return rows.map((r) => r.name);
  } finally {
    await client.end();
  }
}

async function countsOf(target: Target): Promise<Record<string, number>> {
  return withDatabase(target, async (query) => {
    const counts: Record<string, number> = {};
    for (const table of ["User", "Tree", "Person", "Upload"]) {
      const [row] = await query(`SELECT count(*)::int AS n FROM "${table}"`);
      counts[table] = row!.n as number;
    }
    return counts;
  });
}

/** A .tar.gz whose first entry, the manifest, inflates to `size` bytes (of JSON's spaces). */
async function inflatingArchive(size: number): Promise<string> {
  const file = path.join(tempDir("bomb"), "bomb.tar.gz");
  const head = Buffer.from('{"format":"heirloom-backup","version":1,"pad":"');
  const tail = Buffer.from('"}');
  const block = Buffer.alloc(1 << 20, 0x20);
  const body = function* () {
    yield head;
    let left = size - head.length - tail.length;
    while (left > 0) {
      const n = Math.min(left, block.length);
      yield block.subarray(0, n);
      left -= n;
    }
    yield tail;
  };
  await pipeline(
    Readable.from(writeTar([{ name: MANIFEST, size, bytes: body }])),
    createGzip({ level: 9 }),
    fs.createWriteStream(file),
  );
  return file;
}

describe.each(ENGINES)("hostile archives and mistakes on $engine", ({ engine }) => {
  let site: Site;
  let archive: string;

  beforeAll(async () => {
    site = await makeSite(engine);
    archive = path.join(tempDir("archive"), "site.tar.gz");
    const backup = await runScript("scripts/backup.ts", [archive], site);
    expect(backup.code, `${backup.stdout}\n${backup.stderr}`).toBe(0);
  });

  test("refuses a manifest naming a migration ../schema.prisma, and writes nothing anywhere", async () => {
    const hostile = await repack(archive, "escape.tar.gz", (manifest, entries) => {
      manifest.migrations = [...manifest.migrations, "../schema.prisma"];
      return entries;
    });
    const target = await freshTarget(engine, "escape");
    const tmp = tempDir("tmp");
    const restore = await runScript("scripts/restore.ts", [hostile], { ...target, tmpDir: tmp });
    expect(restore.code).toBe(1);
    expect(restore.stderr).toContain("Nothing was restored");
    expect(restore.stderr).toMatch(/unsafe migration name/);
    // The escape would have copied prisma/schema.prisma beside the temporary migrations folder
    // (TMPDIR also holds tsx's cache).
    expect(Object.keys(listing(tmp)!).filter((name) => name.includes("schema"))).toEqual([]);
    expect(listing(target.dataDir)).toBeNull();
    if (target.databaseUrl) expect(await tablesOf(target.databaseUrl)).toEqual([]);

    // Table names and upload paths are held to the same rule.
    for (const [label, change] of [
      ["table", (m: Manifest) => (m.tables[0]!.name = "../User")],
      ["table", (m: Manifest) => (m.tables[0]!.name = "User\u0000")],
      ["upload", (m: Manifest) => (m.uploads.missing = ["../../etc/passwd"])],
    ] as const) {
      const bad = await repack(archive, `bad-${label}.tar.gz`, (manifest, entries) => {
        change(manifest);
        return entries;
      });
      const refused = await runScript("scripts/restore.ts", [bad], target);
      expect(refused.code, refused.stdout).toBe(1);
      expect(refused.stderr).toMatch(new RegExp(`unsafe ${label}`));
    }
  });

  test("refuses a manifest that inflates past its cap, in bounded memory", async () => {
    const bomb = await inflatingArchive(HUGE_MANIFEST_BYTES);
    expect(fs.statSync(bomb).size).toBeLessThan(2_000_000);
    const target = await freshTarget(engine, "bomb");
    const restore = await runScript("scripts/restore.ts", [bomb], target);
    console.log(
      `${engine}: refusing a ${HUGE_MANIFEST_BYTES / 2 ** 20} MB manifest, restore peaked at ${Math.round(restore.maxRssKb / 1024)} MB`,
    );
    expect(restore.code).toBe(1);
    expect(restore.maxRssKb).toBeLessThan(MEMORY_BOUND_KB);
    expect(restore.stderr).toMatch(/manifest is larger than/);
    const verify = await runScript("scripts/backup.ts", ["--verify", bomb], target);
    expect(verify.code).toBe(1);
    expect(verify.maxRssKb).toBeLessThan(MEMORY_BOUND_KB);
    expect(verify.stderr).toMatch(/manifest is larger than/);
  });

  test("a cut-off archive leaves a fresh target exactly as it was", async () => {
    const bytes = fs.readFileSync(archive);
    const cut = path.join(tempDir("cut"), "cut.tar.gz");
    // The images (random bytes) are most of the archive and come last: the cut falls in them,
    // after every table was loaded.
    fs.writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length * 0.8)));

    const target = await freshTarget(engine, "cut");
    const restore = await runScript("scripts/restore.ts", [cut], target);
    expect(restore.code).toBe(1);
    expect(restore.stderr).toContain("Nothing was restored");
    expect(listing(target.dataDir)).toBeNull();
    if (target.databaseUrl) expect(await tablesOf(target.databaseUrl)).toEqual([]);

    // A DATA_DIR that exists, with an empty database folder and uploads folder (an empty target).
    const prepared = await freshTarget(engine, "cut-prepared");
    fs.mkdirSync(path.join(prepared.dataDir, "pglite"), { recursive: true });
    fs.mkdirSync(path.join(prepared.dataDir, "uploads"), { recursive: true });
    const before = listing(prepared.dataDir);
    const again = await runScript("scripts/restore.ts", [cut], prepared);
    expect(again.code).toBe(1);
    expect(listing(prepared.dataDir)).toEqual(before);
    if (prepared.databaseUrl) expect(await tablesOf(prepared.databaseUrl)).toEqual([]);
  });

  test("restores an archive re-packed in another order, and exits as soon as it is done", async () => {
    const reordered = await repack(archive, "reordered.tar.gz", (manifest, entries) => {
      manifest.tables.reverse();
      return [...entries].reverse();
    });
    const target = await freshTarget(engine, "reordered");
    const restore = await runScript("scripts/restore.ts", [reordered], target);
    expect(restore.code, `${restore.stdout}\n${restore.stderr}`).toBe(0);
    expect(await countsOf(target)).toEqual(await countsOf(site));
    for (const image of site.images) {
      expect(fs.readFileSync(path.join(target.dataDir, "uploads", `${image}.webp`))).toEqual(
        fs.readFileSync(path.join(site.dataDir, "uploads", `${image}.webp`)),
      );
    }
    console.log(
      `${engine}: restore exited ${Math.round(restore.exitAfterRestoredMs!)} ms after "Restored"`,
    );
    expect(restore.exitAfterRestoredMs).toBeLessThan(EXIT_AFTER_RESTORED_MS);
  });

  test("backup refuses uploads that are not the database's, unless --no-uploads", async () => {
    // The database in another DATA_DIR (PGlite: the folder copied without its images; PostgreSQL:
    // DATABASE_URL with another DATA_DIR), whose uploads folder holds another site's images.
    const elsewhere = path.join(tempDir("elsewhere"), "data");
    if (engine === "PGlite") {
      fs.cpSync(path.join(site.dataDir, "pglite"), path.join(elsewhere, "pglite"), {
        recursive: true,
      });
    }
    const env = { dataDir: elsewhere, databaseUrl: site.databaseUrl };
    const out = path.join(tempDir("refused"), "refused.tar.gz");
    const empty = await runScript("scripts/backup.ts", [out], env);
    expect(empty.code, empty.stdout).toBe(1);
    expect(empty.stderr).toMatch(/do not belong to this database/);
    expect(empty.stderr).toContain("--no-uploads");
    expect(fs.existsSync(out)).toBe(false);

    const foreign = path.join(elsewhere, "uploads", "avatar", `${randomUUID()}.png.webp`);
    fs.mkdirSync(path.dirname(foreign), { recursive: true });
    fs.writeFileSync(foreign, randomBytes(1_000));
    const other = await runScript("scripts/backup.ts", [out], env);
    expect(other.code, other.stdout).toBe(1);
    expect(fs.readdirSync(path.dirname(out))).toEqual([]);

    const alone = await runScript("scripts/backup.ts", [out, "--no-uploads"], env);
    expect(alone.code, `${alone.stdout}\n${alone.stderr}`).toBe(0);
    const entries = await readArchive(out);
    expect(entries.filter((e) => e.name.startsWith("uploads/"))).toEqual([]);
    expect(manifestOf(entries).uploads).toMatchObject({ files: 0, omitted: true });
    expect(alone.stdout).toMatch(/without images/);
  });

  test("--verify checks an archive completely and writes nothing", async () => {
    const nowhere = path.join(tempDir("verify"), "data");
    // Verifying needs no database: a DATABASE_URL that names none is never opened.
    const env = {
      dataDir: nowhere,
      databaseUrl:
        engine === "PostgreSQL" ? "postgres://postgres@127.0.0.1:5432/heirloom_none" : undefined,
    };
    const folder = path.dirname(archive);
    const before = listing(folder);
    const good = await runScript("scripts/backup.ts", ["--verify", archive], env);
    expect(good.code, `${good.stdout}\n${good.stderr}`).toBe(0);
    expect(good.stdout).toMatch(/is complete/);

    const corrupted = await repack(archive, "corrupted.tar.gz", (_manifest, entries) =>
      entries.map((e) =>
        e.name === "database/Person.jsonl"
          ? { name: e.name, bytes: Buffer.from(e.bytes.toString().replace(/^\{/, "{,")) }
          : e,
      ),
    );
    const badRow = await runScript("scripts/backup.ts", ["--verify", corrupted], env);
    expect(badRow.code).toBe(1);
    expect(badRow.stderr).toMatch(/Person.*line 1/);

    const image = `uploads/${site.images[0]}.webp`;
    const missing = await repack(archive, "missing.tar.gz", (_manifest, entries) =>
      entries.filter((e) => e.name !== image),
    );
    const noFile = await runScript("scripts/backup.ts", ["--verify", missing], env);
    expect(noFile.code).toBe(1);
    expect(noFile.stderr).toContain(image.slice("uploads/".length));

    const changed = await repack(archive, "changed.tar.gz", (_manifest, entries) =>
      entries.map((e) => {
        if (e.name !== image) return e;
        const bytes = Buffer.from(e.bytes);
        bytes[100] = bytes[100]! ^ 0xff;
        return { name: e.name, bytes };
      }),
    );
    const badFile = await runScript("scripts/backup.ts", ["--verify", changed], env);
    expect(badFile.code).toBe(1);
    expect(badFile.stderr).toMatch(/sha-?256|hash/i);

    expect(listing(folder)).toEqual(before);
    expect(fs.existsSync(nowhere)).toBe(false);
  });

  test("--keep N keeps the newest N archives, and only archives", async () => {
    const folder = tempDir("keep");
    const dated = async (name: string, createdAt: string) => {
      const file = await repack(archive, name, (manifest, entries) => {
        manifest.createdAt = createdAt;
        return entries;
      });
      fs.copyFileSync(file, path.join(folder, name));
    };
    await dated("heirloom-2026-11-01.tar.gz", "2026-11-01T03:15:00.000Z");
    await dated("heirloom-2026-11-02.tar.gz", "2026-11-02T03:15:00.000Z");
    await dated("monthly.tar.gz", "2026-10-01T03:15:00.000Z");
    fs.writeFileSync(path.join(folder, "notes.tar.gz"), "not an archive");
    fs.writeFileSync(path.join(folder, "README.txt"), "keep me");
    const backup = await runScript(
      "scripts/backup.ts",
      [path.join(folder, "heirloom-new.tar.gz"), "--keep", "2"],
      site,
    );
    expect(backup.code, `${backup.stdout}\n${backup.stderr}`).toBe(0);
    expect(fs.readdirSync(folder).sort()).toEqual([
      "README.txt",
      "heirloom-2026-11-02.tar.gz",
      "heirloom-new.tar.gz",
      "notes.tar.gz",
    ]);
    const bad = await runScript("scripts/backup.ts", ["--keep", "0"], site);
    expect(bad.code).toBe(2);
  });
});
