// What the API benchmark requests: random trees of many users, published trees, avatars, sign-in
// users and one 1,000-node tree per autosaving connection (created once, kept between runs).
import path from "node:path";
import { SignJWT } from "jose";
import type pg from "pg";
import { writeAvatarFiles, type SeedAvatar } from "../../scripts/lib/seed/avatars";
import { emptyChunk, insertChunk } from "../../scripts/lib/seed/insert";
import { SEED_PASSWORD, seedUsername, type SeedMeta } from "../../scripts/lib/seed/meta";
import { createRandom, randomUuid } from "../../scripts/lib/seed/random";
import { generateTreeWithNodes } from "../../scripts/lib/seed/tree";

export const AUTOSAVE_TITLE = "API bench autosave";
export const AUTOSAVE_NODES = 1_000;

export interface AutosaveTree {
  id: string;
  owner: string;
  /** `{"data": …}`, the body of every save. */
  body: Buffer;
}

export interface Fixtures {
  trees: { id: string; owner: string }[];
  published: string[];
  avatars: string[];
  signinUsers: string[];
  autosave: AutosaveTree[];
  /** A bearer token per user that appears above. */
  tokens: Map<string, string>;
  stats: {
    readTrees: number;
    readTreeOwners: number;
    readTreeMeanSims: number;
    readTreeMaxSims: number;
    published: number;
    avatars: number;
    autosaveTrees: number;
    autosaveNodes: number;
    autosaveBodyKb: number;
  };
}

/** One 1,000-node tree per connection, owned by distinct seeded users; made once. */
async function ensureAutosaveTrees(pool: pg.Pool, count: number, meta: SeedMeta) {
  const { rows } = await pool.query<{ id: string; ownerId: string }>(
    `SELECT "id", "ownerId" FROM "Tree" WHERE "title" LIKE $1 AND "deletedAt" IS NULL ORDER BY "title"`,
    [`${AUTOSAVE_TITLE} %`],
  );
  if (rows.length < count) {
    const rand = createRandom(4_242 + rows.length);
    const newId = () => randomUuid(rand);
    const chunk = emptyChunk();
    const created = new Date().toISOString();
    for (let i = rows.length; i < count; i += 1) {
      // Owners spread over the seeded users, away from the heaviest (lowest) indexes.
      const owner = seedUsername(
        Math.floor(meta.users / 2) + ((i * 97) % Math.floor(meta.users / 2)),
      );
      const tree = generateTreeWithNodes(createRandom(9_000 + i), AUTOSAVE_NODES, newId);
      const id = newId();
      chunk.trees.push({
        id,
        owner,
        title: `${AUTOSAVE_TITLE} ${String(i).padStart(3, "0")}`,
        description: "",
        data: JSON.stringify(tree.data),
        version: 1,
        created,
      });
      for (const person of tree.people)
        chunk.people.push({ ...person, tree: id, avatar: null, created });
    }
    await insertChunk(pool, chunk);
  }
  const all = await pool.query<{ id: string; ownerId: string; data: string }>(
    `SELECT "id", "ownerId", heirloom_tree_text("id", "data") AS "data" FROM "Tree"
     WHERE "title" LIKE $1 AND "deletedAt" IS NULL ORDER BY "title" LIMIT $2`,
    [`${AUTOSAVE_TITLE} %`, count],
  );
  return all.rows.map((row) => ({
    id: row.id,
    owner: row.ownerId,
    body: Buffer.from(JSON.stringify({ data: JSON.parse(row.data) as unknown })),
    nodes: countNodes(JSON.parse(row.data)),
  }));
}

function countNodes(root: unknown): number {
  let nodes = 0;
  const stack = [root as { children?: unknown[] }];
  for (let node = stack.pop(); node; node = stack.pop()) {
    nodes += 1;
    for (const child of node.children ?? []) stack.push(child as { children?: unknown[] });
  }
  return nodes;
}

export async function loadFixtures(options: {
  pool: pg.Pool;
  meta: SeedMeta;
  secret: Uint8Array;
  uploadsDir: string;
  autosaveTrees: number;
}): Promise<Fixtures> {
  const { pool, meta } = options;
  const trees = await pool.query<{ id: string; ownerId: string; sims: number }>(
    `SELECT t."id", t."ownerId", (SELECT count(*)::int FROM "Person" p WHERE p."treeId" = t."id") AS sims
     FROM "Tree" t WHERE t."deletedAt" IS NULL AND t."title" NOT LIKE $1
     ORDER BY md5(t."id") LIMIT 4000`,
    [`${AUTOSAVE_TITLE} %`],
  );
  const published = await pool.query<{ treeId: string }>(
    `SELECT "treeId" FROM "PublishedTree" ORDER BY md5("treeId") LIMIT 2000`,
  );
  const uploads = await pool.query<{
    id: string;
    contentType: string;
    width: number;
    height: number;
  }>(
    `SELECT "id", "contentType", "width", "height" FROM "Upload"
     WHERE "dir" = 'avatar' AND "status" = 'USED' ORDER BY "id" LIMIT 500`,
  );
  // The files are derived from their names, so a wiped DATA_DIR is simply written again.
  await writeAvatarFiles(
    path.resolve(options.uploadsDir),
    uploads.rows.map((row): SeedAvatar => ({
      name: row.id,
      contentType: row.contentType as SeedAvatar["contentType"],
      width: row.width,
      height: row.height,
    })),
  );
  const autosave = await ensureAutosaveTrees(pool, options.autosaveTrees, meta);
  const rand = createRandom(77);
  const signinUsers = Array.from({ length: 2_000 }, () =>
    seedUsername(Math.floor(rand() * meta.users)),
  );

  const tokens = new Map<string, string>();
  const owners = new Set([...trees.rows.map((r) => r.ownerId), ...autosave.map((t) => t.owner)]);
  // One session per owner, as a sign-in would open (ADR 003: tokens name a session and an account).
  const sessions = await pool.query<{ sid: string; owner: string; aid: string }>(
    `WITH s AS (
       INSERT INTO "Session" ("id", "userId")
       SELECT gen_random_uuid()::text, u."id" FROM "User" u WHERE u."id" = ANY($1::text[])
       RETURNING "id", "userId"
     )
     SELECT s."id" AS sid, s."userId" AS owner, u."accountId" AS aid
     FROM s JOIN "User" u ON u."id" = s."userId"`,
    [[...owners]],
  );
  for (const { sid, owner, aid } of sessions.rows) {
    tokens.set(
      owner,
      await new SignJWT({ username: owner, aid, sid })
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setIssuedAt()
        .setExpirationTime("1d")
        .sign(options.secret),
    );
  }
  const sims = trees.rows.map((r) => r.sims);
  return {
    trees: trees.rows.map((r) => ({ id: r.id, owner: r.ownerId })),
    published: published.rows.map((r) => r.treeId),
    avatars: uploads.rows.map((r) => r.id),
    signinUsers,
    autosave: autosave.map(({ id, owner, body }) => ({ id, owner, body })),
    tokens,
    stats: {
      readTrees: trees.rows.length,
      readTreeOwners: new Set(trees.rows.map((r) => r.ownerId)).size,
      readTreeMeanSims:
        Math.round((sims.reduce((a, b) => a + b, 0) / Math.max(1, sims.length)) * 10) / 10,
      readTreeMaxSims: sims.reduce((a, b) => Math.max(a, b), 0),
      published: published.rows.length,
      avatars: uploads.rows.length,
      autosaveTrees: autosave.length,
      autosaveNodes: autosave[0]?.nodes ?? 0,
      autosaveBodyKb: Math.round((autosave[0]?.body.length ?? 0) / 1024),
    },
  };
}

export { SEED_PASSWORD };
