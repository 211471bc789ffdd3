// Backups on both engines (issue 23, ADR 033): a real production server with players, trees,
// Sims, images and publications is backed up by `npm run backup` while autosaves (structure saves
// with If-Match) keep arriving, then restored by `npm run restore` into an empty DATA_DIR or
// database. The restore holds every row and file, loses no save acknowledged before the backup
// began, serves as the original did, and a second restore into the now non-empty target is refused.
// An archive taken on PGlite also restores into PostgreSQL, row for row.
import { setTimeout as sleep } from "node:timers/promises";
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { makePng } from "../helpers/upload-fixtures";
import { addPeople, getTree, percentile, request, round, saveTree, signUp } from "./support/client";
import { reportFigures } from "./support/results";
import {
  AppServer,
  createDatabase,
  DIST_DIR,
  dropDatabase,
  ensureBuild,
  pickPort,
  removeTempDirs,
  tempDir,
} from "./support/server";
import { buildTree, saveBody, variantOf } from "./support/trees";

const ROOT = path.resolve(import.meta.dirname, "../..");
const TSX = path.join(ROOT, "node_modules/tsx/dist/cli.mjs");
const PLAYERS = 2;
const TREES_PER_PLAYER = 2;
const PEOPLE_PER_TREE = 12;
const AVATARS_PER_TREE = 3;
const NODES = 300;
/** Autosaves run this long before the backup starts, and this long after it ends. */
const WARM_UP_MS = 1_000;
const AFTER_MS = 500;

const ENGINES = [
  { engine: "PGlite", port: pickPort(5_300), database: null },
  { engine: "PostgreSQL", port: pickPort(5_600), database: `heirloom_backup_${process.pid}` },
] as const;

beforeAll(() => ensureBuild());
afterAll(() => removeTempDirs());

/** Runs an npm script's file as `npm run` would (tsx), with the server's environment. */
function runScript(
  script: string,
  args: string[],
  env: { dataDir: string; databaseUrl?: string },
): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [TSX, script, ...args], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      HEIRLOOM_DIST_DIR: DIST_DIR,
      DATA_DIR: env.dataDir,
      DATABASE_URL: env.databaseUrl ?? "",
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) =>
    child.on("exit", (code) => resolve({ code, stdout, stderr, ms: performance.now() - started })),
  );
}

interface Player {
  token: string;
  trees: { id: string; people: string[]; cover: string; avatars: string[] }[];
}

async function uploadImage(base: string, token: string, dir: "avatar" | "cover", seed: number) {
  const url = await request<{ filename: string; uploadURL: string }>(
    base,
    "GET",
    `/api/upload/url?type=image/png&dir=${dir}`,
    { token },
  );
  expect(url.status, url.text).toBe(200);
  const target = new URL(url.body!.uploadURL);
  const put = await fetch(`${base}${target.pathname}${target.search}`, {
    method: "PUT",
    headers: { "content-type": "image/png" },
    body: new Uint8Array(await makePng(48 + seed, 40 + seed)),
  });
  expect(put.status, await put.text()).toBe(200);
  return url.body!.filename;
}

/** Players with trees (a cover each), Sims (some with avatars), a structure and a publication. */
async function seed(base: string): Promise<Player[]> {
  const players: Player[] = [];
  for (let p = 0; p < PLAYERS; p++) {
    const token = await signUp(base, "backup");
    const player: Player = { token, trees: [] };
    for (let t = 0; t < TREES_PER_PLAYER; t++) {
      const cover = await uploadImage(base, token, "cover", p * 10 + t);
      const created = await request<{ _id: string }>(base, "POST", "/api/trees", {
        token,
        body: { title: `Backup legacy ${p + 1}.${t + 1}`, cover },
      });
      expect(created.status, created.text).toBe(200);
      const id = created.body!._id;
      const people = await addPeople(base, token, id, PEOPLE_PER_TREE);
      const avatars: string[] = [];
      for (let a = 0; a < AVATARS_PER_TREE; a++) {
        const avatar = await uploadImage(base, token, "avatar", p * 10 + t + a);
        const sim = await request<{ _id: string }>(base, "POST", "/api/people", {
          token,
          body: { tree: id, firstName: `Pictured ${a + 1}`, lastName: "Backup", avatar },
        });
        expect(sim.status, sim.text).toBe(200);
        people.push(sim.body!._id);
        avatars.push(avatar);
      }
      const saved = await saveTree(base, token, id, saveBody(buildTree(people, NODES, 0)), 1);
      expect(saved.status, saved.text).toBe(200);
      player.trees.push({ id, people, cover, avatars });
    }
    const published = await request(base, "PUT", `/api/published/${player.trees[0]!.id}`, {
      token,
    });
    expect(published.status, published.text).toBe(200);
    players.push(player);
  }
  return players;
}

interface Save {
  treeId: string;
  variant: number;
  status: number;
  version?: number;
  startedAt: number;
  endedAt: number;
}

/** One editor autosaving a tree: each save carries If-Match of the version it last got. */
async function autosave(
  base: string,
  token: string,
  tree: Player["trees"][number],
  saves: Save[],
  running: () => boolean,
  firstVariant: number,
) {
  let version = (await getTree(base, token, tree.id)).body!.version;
  for (let variant = firstVariant; running(); variant++) {
    const startedAt = performance.now();
    const body = saveBody(buildTree(tree.people, NODES, variant));
    const answer = await saveTree(base, token, tree.id, body, version);
    const got = (answer.body as { version?: number } | undefined)?.version;
    saves.push({
      treeId: tree.id,
      variant,
      status: answer.status,
      version: got,
      startedAt,
      endedAt: performance.now(),
    });
    if (answer.status === 200 && got) version = got;
    else version = (await getTree(base, token, tree.id)).body?.version ?? version;
    await sleep(20);
  }
}

type Rows = Map<string, string[]>;

/** Every row of every table (row_to_json, sorted), through `query`. */
async function readRows(
  query: (text: string) => Promise<Record<string, unknown>[]>,
  tables: string[],
): Promise<Rows> {
  const rows: Rows = new Map();
  for (const table of tables) {
    // a tree's structure whole, its chunks put in place (ADR 037)
    const row =
      table === "Tree"
        ? `(to_jsonb(t) || jsonb_build_object('data', heirloom_tree_data(t."id", t."data")))::text`
        : "row_to_json(t)::text";
    const found = await query(`SELECT ${row} AS row FROM "${table}" t`);
    rows.set(table, found.map((r) => r.row as string).sort());
  }
  return rows;
}

async function rowsOf(target: { pgliteDir?: string; url?: string }, tables: string[]) {
  if (target.url) {
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    try {
      return await readRows(
        async (text) => (await client.query<Record<string, unknown>>(text)).rows,
        tables,
      );
    } finally {
      await client.end();
    }
  }
  const pglite = new PGlite(target.pgliteDir);
  try {
    return await readRows(
      async (text) => (await pglite.query<Record<string, unknown>>(text)).rows,
      tables,
    );
  } finally {
    await pglite.close();
  }
}

/** sha256 of every file under `dir`, by relative path. */
function filesOf(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  if (!fs.existsSync(dir)) return files;
  for (const entry of fs.readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    const full = path.join(dir, entry);
    if (!fs.statSync(full).isFile()) continue;
    files.set(entry, createHash("sha256").update(fs.readFileSync(full)).digest("hex"));
  }
  return files;
}

interface Manifest {
  engine: string;
  migrations: string[];
  tables: { name: string; rows: number }[];
  counts: Record<string, number>;
  uploads: { files: number; missing: string[] };
  snapshotMs: number;
}

describe.each(ENGINES)("backup and restore on $engine", ({ engine, port, database }) => {
  let server: AppServer;
  let restored: AppServer | undefined;
  let dataDir: string;
  let databaseUrl: string | undefined;
  const restoredDatabase = database ? `${database}_restored` : null;
  /** PostgreSQL, for the archive taken on PGlite. */
  const crossDatabase = database ? null : `heirloom_backup_cross_${process.pid}`;

  beforeAll(async () => {
    dataDir = tempDir("backup");
    databaseUrl = database ? await createDatabase(database) : undefined;
    server = new AppServer({ port, databaseUrl, dataDir });
    await server.start();
  });

  afterAll(async () => {
    await server?.stop();
    await restored?.stop();
    if (database) await dropDatabase(database);
    if (restoredDatabase) await dropDatabase(restoredDatabase);
    if (crossDatabase) await dropDatabase(crossDatabase);
  });

  test("round-trips every row and file while autosaves arrive, and refuses a non-empty target", async () => {
    const base = server.url;
    const players = await seed(base);
    const trees = players.flatMap((p) => p.trees.map((tree) => ({ token: p.token, tree })));

    // Autosaves on every tree, before, during and after the backup.
    const saves: Save[] = [];
    let saving = true;
    const editors = Promise.all(
      trees.map(({ token, tree }, i) =>
        autosave(base, token, tree, saves, () => saving, 1 + i * 1_000_000),
      ),
    );
    // Until every tree has an acknowledged save (a busy machine takes seconds for the first).
    const warmUpEnds = performance.now() + WARM_UP_MS;
    const deadline = performance.now() + 60_000;
    while (
      (performance.now() < warmUpEnds ||
        !trees.every(({ tree }) => saves.some((s) => s.treeId === tree.id && s.status === 200))) &&
      performance.now() < deadline
    ) {
      await sleep(50);
    }
    const archive = path.join(tempDir("archive"), "heirloom.tar.gz");
    const backupStartedAt = performance.now();
    const acknowledgedBefore = saves.filter((s) => s.status === 200 && s.endedAt < backupStartedAt);
    const backup = await runScript("scripts/backup.ts", [archive], { dataDir, databaseUrl });
    const backupEndedAt = performance.now();
    await sleep(AFTER_MS);
    saving = false;
    await editors;
    expect(backup.code, `${backup.stdout}\n${backup.stderr}\n${server.logTail()}`).toBe(0);
    expect(backup.stdout).toContain("Backed up 2 player(s), 4 tree(s)");
    // On the embedded default the server holding the folder took the snapshot: the command never
    // opened the folder a second time (ADR 013).
    if (!database) expect(backup.stdout).toContain("taken by the running server");
    expect(fs.statSync(archive).mode & 0o777).toBe(0o600);

    // --no-uploads: the database alone, taken by the running server on the embedded default too
    // (its socket is asked for no images), and --verify finds that archive whole.
    const bare = path.join(path.dirname(archive), "database-only.tar.gz");
    const alone = await runScript("scripts/backup.ts", [bare, "--no-uploads"], {
      dataDir,
      databaseUrl,
    });
    expect(alone.code, `${alone.stdout}\n${alone.stderr}\n${server.logTail()}`).toBe(0);
    if (!database) expect(alone.stdout).toContain("taken by the running server");
    const bareManifest = JSON.parse(await runManifest(bare)) as Manifest;
    expect(bareManifest.uploads).toMatchObject({ files: 0, omitted: true });
    expect(bareManifest.counts.images).toBe(PLAYERS * TREES_PER_PLAYER * (1 + AVATARS_PER_TREE));
    const verified = await runScript("scripts/backup.ts", ["--verify", bare], { dataDir });
    expect(verified.code, `${verified.stdout}\n${verified.stderr}`).toBe(0);

    // The saves really ran during the backup, and none failed.
    const during = saves.filter(
      (s) => s.startedAt >= backupStartedAt && s.startedAt < backupEndedAt,
    );
    expect(during.filter((s) => s.status === 200).length).toBeGreaterThan(0);
    expect(saves.filter((s) => s.status !== 200 && s.status !== 409)).toEqual([]);
    for (const { tree } of trees) {
      expect(acknowledgedBefore.some((s) => s.treeId === tree.id)).toBe(true);
    }

    // The live state, read with the server stopped (an embedded folder has one process at a time).
    await server.stop();
    const liveTarget = databaseUrl
      ? { url: databaseUrl }
      : { pgliteDir: path.join(dataDir, "pglite") };
    const manifestText = await runManifest(archive);
    const manifest = JSON.parse(manifestText) as Manifest;
    expect(manifest.engine).toBe(engine === "PGlite" ? "pglite" : "postgresql");
    expect(manifest.counts).toMatchObject({
      players: PLAYERS,
      trees: PLAYERS * TREES_PER_PLAYER,
      people: PLAYERS * TREES_PER_PLAYER * (PEOPLE_PER_TREE + AVATARS_PER_TREE),
      images: PLAYERS * TREES_PER_PLAYER * (1 + AVATARS_PER_TREE),
      publications: PLAYERS,
    });
    expect(manifest.uploads.missing).toEqual([]);
    const tables = manifest.tables.map((t) => t.name);
    const live = await rowsOf(liveTarget, tables);

    // Restore into an empty DATA_DIR (and, on PostgreSQL, an empty database).
    const restoredDir = tempDir("restored");
    const restoredUrl = restoredDatabase ? await createDatabase(restoredDatabase) : undefined;
    const restore = await runScript("scripts/restore.ts", [archive], {
      dataDir: restoredDir,
      databaseUrl: restoredUrl,
    });
    expect(restore.code, `${restore.stdout}\n${restore.stderr}`).toBe(0);
    // The restored DATA_DIR is this account's only (issue 32.1): PGlite writes 0666 files.
    const open: string[] = [];
    for (const entry of fs.readdirSync(restoredDir, { recursive: true, encoding: "utf8" })) {
      const mode = fs.lstatSync(path.join(restoredDir, entry)).mode & 0o777;
      if (mode & 0o077) open.push(`${entry} ${mode.toString(8)}`);
    }
    expect(open.slice(0, 5), `${open.length} entries readable by others`).toEqual([]);
    const restoredTarget = restoredUrl
      ? { url: restoredUrl }
      : { pgliteDir: path.join(restoredDir, "pglite") };
    const back = await rowsOf(restoredTarget, tables);

    // Every row, as it was: the autosaved trees' rows may be newer than the backup's start, but
    // hold a save that was acknowledged, never one older than the last acknowledged before it.
    const autosaved = new Set(trees.map((t) => t.tree.id));
    for (const table of tables) {
      // Rate-limit counters move with every request, also after the snapshot. The chunks of an
      // autosaved tree may be newer than the backup's start: its whole structure is checked below.
      if (table === "RateLimit" || table === "TreeChunk") continue;
      const liveRows = live.get(table)!;
      const backRows = back.get(table)!;
      expect(backRows.length, `${table}: rows`).toBe(
        manifest.tables.find((t) => t.name === table)!.rows,
      );
      if (table !== "Tree") {
        expect(backRows, `${table}: rows`).toEqual(liveRows);
        continue;
      }
      const volatile = ["data", "version", "treeGeneration", "updatedAt"];
      const stable = (row: string) => {
        const value = JSON.parse(row) as Record<string, unknown>;
        return JSON.stringify(Object.entries(value).filter(([key]) => !volatile.includes(key)));
      };
      expect(backRows.map(stable).sort()).toEqual(liveRows.map(stable).sort());
      for (const row of backRows.map((r) => JSON.parse(r) as Record<string, unknown>)) {
        const id = row.id as string;
        expect(autosaved.has(id)).toBe(true);
        const version = row.version as number;
        const before = acknowledgedBefore.filter((s) => s.treeId === id);
        const lastBefore = Math.max(...before.map((s) => s.version!));
        expect(
          version,
          `tree ${id}: a save acknowledged before the backup was lost`,
        ).toBeGreaterThanOrEqual(lastBefore);
        const save = saves.find(
          (s) => s.treeId === id && s.status === 200 && s.version === version,
        );
        expect(save, `tree ${id}: version ${version} is no acknowledged save`).toBeDefined();
        expect(variantOf(row.data)).toBe(save!.variant);
      }
    }

    // Every file, byte for byte.
    const liveFiles = filesOf(path.join(dataDir, "uploads"));
    const backFiles = filesOf(path.join(restoredDir, "uploads"));
    expect(liveFiles.size).toBeGreaterThanOrEqual(manifest.counts.images!);
    expect(backFiles).toEqual(liveFiles);
    expect(backFiles.size).toBe(manifest.uploads.files);

    // A second restore into the now non-empty target is refused, and changes nothing.
    const again = await runScript("scripts/restore.ts", [archive], {
      dataDir: restoredDir,
      databaseUrl: restoredUrl,
    });
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain("not empty");
    expect(await rowsOf(restoredTarget, tables)).toEqual(back);

    // An archive taken on the embedded default restores into PostgreSQL, row for row: moving a
    // site that outgrew PGlite. (The other way is the same code; it costs the test 40 s.)
    let crossMs: number | undefined;
    if (crossDatabase) {
      const crossDir = tempDir("cross");
      const crossUrl = await createDatabase(crossDatabase);
      const cross = await runScript("scripts/restore.ts", [archive], {
        dataDir: crossDir,
        databaseUrl: crossUrl,
      });
      expect(cross.code, `${cross.stdout}\n${cross.stderr}`).toBe(0);
      expect(await rowsOf({ url: crossUrl }, tables)).toEqual(back);
      expect(filesOf(path.join(crossDir, "uploads"))).toEqual(backFiles);
      crossMs = round(cross.ms);
    }

    // The restored data serves as the original did: the players' sessions, trees, Sims, images
    // and public pages.
    restored = new AppServer({ port, databaseUrl: restoredUrl, dataDir: restoredDir });
    await restored.start();
    for (const player of players) {
      const list = await request<{ _id: string }[]>(restored.url, "GET", "/api/trees", {
        token: player.token,
      });
      expect(list.status, list.text).toBe(200);
      expect(list.body!.map((t) => t._id).sort()).toEqual(player.trees.map((t) => t.id).sort());
      for (const tree of player.trees) {
        const people = await request<unknown[]>(
          restored.url,
          "GET",
          `/api/people?tree=${tree.id}`,
          {
            token: player.token,
          },
        );
        expect(people.status).toBe(200);
        expect(people.body!.length).toBe(tree.people.length);
        for (const image of [tree.cover, ...tree.avatars]) {
          const answer = await fetch(`${restored.url}/api/upload/orig/${image}`);
          expect(answer.status, image).toBe(200);
          expect((await answer.arrayBuffer()).byteLength).toBeGreaterThan(0);
        }
      }
      const page = await fetch(`${restored.url}/public/${player.trees[0]!.id}`);
      expect(page.status).toBe(200);
    }
    await restored.stop();

    const savesBefore = saves
      .filter((s) => s.endedAt < backupStartedAt)
      .map((s) => s.endedAt - s.startedAt);
    const savesDuring = during.map((s) => s.endedAt - s.startedAt);
    reportFigures(`backup-${engine.toLowerCase()}`, {
      backupMs: round(backup.ms),
      snapshotMs: manifest.snapshotMs,
      restoreMs: round(restore.ms),
      restoreIntoPostgresMs: crossMs,
      archiveBytes: fs.statSync(archive).size,
      files: manifest.uploads.files,
      savesDuringBackup: savesDuring.length,
      saveP50BeforeMs: round(percentile(savesBefore, 50)),
      saveP50DuringMs: round(percentile(savesDuring, 50)),
      saveMaxDuringMs: round(Math.max(...savesDuring)),
    });
  });
});

/** The manifest of an archive, read by the code under test's own reader (through tsx). */
async function runManifest(archive: string): Promise<string> {
  const { readManifest } = await import("@/lib/server/backup/archive");
  return JSON.stringify(await readManifest(archive));
}
