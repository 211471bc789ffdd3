// The scale seed, small: 50 users and 100 trees in a throwaway PostgreSQL database that the route
// handlers of this file then use, so a seeded user signs in through the API like a player.
import { spawn } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetEnvForTests } from "@/lib/env";
import type { TreeNode } from "@/lib/schemas/tree";
import { db } from "@/lib/server/db";
import { SEED_PASSWORD, type SeedMeta, seedScale, seedUsername } from "@/scripts/lib/seed/seed";
import { api } from "../helpers/api";
import { TEST_DATABASE_URL } from "../../vitest.config";

const root = path.resolve(import.meta.dirname, "../..");
const name = `heirloom_seed_smoke_${process.pid}`;
const adminUrl = Object.assign(new URL(TEST_DATABASE_URL), { pathname: "/postgres" }).toString();
const databaseUrl = Object.assign(new URL(TEST_DATABASE_URL), { pathname: `/${name}` }).toString();
// Before anything opens the Prisma client: this file's handlers use the seeded database.
process.env.DATABASE_URL = databaseUrl;
resetEnvForTests();

let uploadsDir: string;
let meta: SeedMeta;
let pool: pg.Pool;

async function admin(sql: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

const count = async (table: string) =>
  (await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table}"`)).rows[0]!.n;

beforeAll(async () => {
  await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin(`CREATE DATABASE "${name}"`);
  uploadsDir = await fs.mkdtemp(path.join(os.tmpdir(), "heirloom-seed-"));
  meta = await seedScale({
    databaseUrl,
    users: 50,
    trees: 100,
    seed: 3,
    avatars: 5,
    uploadsDir,
    log: () => undefined,
  });
  pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
}, 120_000);

afterAll(async () => {
  await pool?.end();
  await db.$disconnect();
  await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  if (uploadsDir) await fs.rm(uploadsDir, { recursive: true, force: true });
});

describe("seed:scale", () => {
  it("writes the users, trees, people, published copies and avatars it reports", async () => {
    expect(meta).toMatchObject({ users: 50, trees: 100, published: 14, uploads: 5 });
    expect(await count("User")).toBe(50);
    expect(await count("Tree")).toBe(100);
    expect(await count("Person")).toBe(meta.people);
    expect(meta.people).toBe(meta.sizes.total);
    expect(await count("PublishedTree")).toBe(14);
    expect(await count("Upload")).toBe(5);
    const avatars = await pool.query<{ id: string; size: number }>(
      `SELECT u."id", u."size" FROM "Upload" u JOIN "Person" p ON p."avatar" = u."id"`,
    );
    expect(avatars.rows).toHaveLength(5);
    for (const { id, size } of avatars.rows) {
      expect((await fs.stat(path.join(uploadsDir, id))).size).toBe(size);
    }
  });

  it("places exactly the people of each tree in its structure", async () => {
    const { rows } = await pool.query<{ id: string; data: TreeNode; people: string[] }>(
      `SELECT t."id", t."data", array_agg(p."id") AS people
       FROM "Tree" t JOIN "Person" p ON p."treeId" = t."id" GROUP BY t."id"`,
    );
    expect(rows).toHaveLength(100);
    for (const row of rows) {
      const placed: string[] = [];
      const stack = [row.data];
      for (let node = stack.pop(); node; node = stack.pop()) {
        if (node.person) placed.push(node.person._id);
        for (const partner of node.partners) for (const p of partner.people) placed.push(p._id);
        stack.push(...node.children);
      }
      expect(placed.sort()).toEqual([...row.people].sort());
    }
  });

  it("lets a seeded user sign in with the shared password and read their trees", async () => {
    const owner = (
      await pool.query<{ ownerId: string; trees: number }>(
        `SELECT "ownerId", count(*)::int AS trees FROM "Tree"
         GROUP BY "ownerId" ORDER BY count(*) DESC LIMIT 1`,
      )
    ).rows[0]!;
    const signIn = await api.post("/api/account/signin", {
      username: owner.ownerId,
      password: SEED_PASSWORD,
    });
    expect(signIn.status).toBe(200);
    const token = (signIn.body as { token: string }).token;

    const trees = await api.get<{ _id: string }[]>("/api/trees", { token });
    expect(trees.status).toBe(200);
    expect(trees.body).toHaveLength(owner.trees);
    const first = trees.body[0]!._id;
    const [tree, people] = await Promise.all([
      api.get(`/api/trees/${first}`, { token }),
      api.get<unknown[]>(`/api/people?tree=${first}`, { token }),
    ]);
    expect(tree.status).toBe(200);
    expect(people.status).toBe(200);
    expect(people.body).toHaveLength(
      (await pool.query(`SELECT 1 FROM "Person" WHERE "treeId" = $1`, [first])).rowCount!,
    );

    const wrong = await api.post("/api/account/signin", {
      username: seedUsername(0),
      password: "not the password",
    });
    expect(wrong.status).toBe(400);
  });

  it("serves the seeded published copies to anyone", async () => {
    const { treeId } = (
      await pool.query<{ treeId: string }>(`SELECT "treeId" FROM "PublishedTree" LIMIT 1`)
    ).rows[0]!;
    const published = await api.get<{ _id: string }>(`/api/published/${treeId}`);
    expect(published.status).toBe(200);
    expect(published.body._id).toBe(treeId);
  });

  it("refuses a database with users in it unless told to append or reset", async () => {
    const options = {
      databaseUrl,
      users: 5,
      trees: 10,
      avatars: 0,
      uploadsDir,
      log: () => undefined,
    };
    await expect(seedScale({ ...options, skipMigrations: true })).rejects.toThrow(
      /already has 50 users/,
    );
    const appended = await seedScale({ ...options, skipMigrations: true, mode: "append" });
    expect(appended).toMatchObject({ users: 55, trees: 110 });
    expect(await count("User")).toBe(55);
    expect(await count("Tree")).toBe(110);
    expect(await count("Person")).toBe(appended.people);
  });
});

describe("seed:scale when PostgreSQL goes away", () => {
  const cutName = `heirloom_seed_cut_${process.pid}`;
  const killedName = `heirloom_seed_killed_${process.pid}`;
  const urlOf = (database: string) =>
    Object.assign(new URL(TEST_DATABASE_URL), { pathname: `/${database}` }).toString();
  // Enough trees for several chunks (a chunk closes at 1,000 trees or 12,000 people).
  const scale = { users: 30, trees: 4_000, seed: 5, avatars: 3 };
  let dirs: string[] = [];

  /** Trees written so far; 0 before the migrations made the table. */
  const treesIn = async (database: string) => {
    const client = new pg.Client({ connectionString: urlOf(database) });
    await client.connect();
    try {
      return (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM "Tree"`)).rows[0]!
        .n;
    } catch {
      return 0;
    } finally {
      await client.end();
    }
  };
  /** Until the first chunk is in: polls while `running` holds. */
  const firstChunk = async (database: string, running: () => boolean) => {
    while (running() && (await treesIn(database)) === 0) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  /** Every id of the seeded tables, in one text per table, to compare two seeds. */
  const fingerprint = async (database: string) => {
    const client = new pg.Client({ connectionString: urlOf(database) });
    await client.connect();
    try {
      const out: Record<string, string> = {};
      for (const [table, id] of [
        ["User", "id"],
        ["Tree", "id"],
        ["Person", "id"],
        ["PublishedTree", "treeId"],
        ["Upload", "id"],
      ]) {
        const { rows } = await client.query<{ n: number; ids: string }>(
          `SELECT count(*)::int AS n, md5(string_agg("${id}", ',' ORDER BY "${id}")) AS ids FROM "${table}"`,
        );
        out[table!] = `${rows[0]!.n}:${rows[0]!.ids}`;
      }
      return out;
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    for (const database of [cutName, killedName]) {
      await admin(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
      await admin(`CREATE DATABASE "${database}"`);
    }
  });

  afterAll(async () => {
    for (const database of [cutName, killedName]) {
      await admin(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    }
    for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
    dirs = [];
  });

  it("waits out its connections being cut mid-seed and writes every row once", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "heirloom-seed-cut-"));
    dirs.push(dir);
    let settled = false;
    const seeding = seedScale({
      databaseUrl: urlOf(cutName),
      ...scale,
      uploadsDir: dir,
      log: () => undefined,
    }).finally(() => {
      settled = true;
    });
    await firstChunk(cutName, () => !settled);
    // What a PostgreSQL restart does to the seed: every one of its connections is closed.
    const { rowCount: cut } = await admin(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE datname = '${cutName}' AND pid <> pg_backend_pid()`,
    );
    const seeded = await seeding;
    expect(cut).toBeGreaterThan(0);
    expect(seeded).toMatchObject({ users: 30, trees: 4_000, uploads: 3 });
    const prints = await fingerprint(cutName);
    expect(prints.Tree).toMatch(/^4000:/);
    expect(prints.Person).toMatch(new RegExp(`^${seeded.people}:`));
    expect(prints.PublishedTree).toMatch(new RegExp(`^${seeded.published}:`));
  }, 300_000);

  it("resumes a seed killed mid-way (--resume) to the same rows as one run", async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "heirloom-seed-killed-"));
    dirs.push(dir);
    const child = spawn(
      "npx",
      [
        "tsx",
        "--conditions",
        "react-server",
        "scripts/seed-scale.ts",
        ...Object.entries(scale).flatMap(([key, value]) => [`--${key}`, String(value)]),
        "--database-url",
        urlOf(killedName),
      ],
      { cwd: root, env: { ...process.env, DATA_DIR: dir }, stdio: "ignore", detached: true },
    );
    const exited = new Promise((resolve) => child.on("exit", resolve));
    let running = true;
    void exited.then(() => (running = false));
    await firstChunk(killedName, () => running);
    process.kill(-child.pid!, "SIGKILL");
    await exited;
    const partial = await treesIn(killedName);
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(4_000);

    const resumed = await seedScale({
      databaseUrl: urlOf(killedName),
      ...scale,
      mode: "resume",
      uploadsDir: dir,
      log: () => undefined,
    });
    expect(resumed).toMatchObject({ users: 30, trees: 4_000, uploads: 3 });
    expect(await fingerprint(killedName)).toEqual(await fingerprint(cutName));
    // A finished seed has nothing to resume.
    await expect(
      seedScale({
        databaseUrl: urlOf(killedName),
        ...scale,
        mode: "resume",
        uploadsDir: dir,
        log: () => undefined,
      }),
    ).rejects.toThrow(/finished already/);
  }, 300_000);
});
