// The fuzzer's world: its own PostgreSQL database and data directory (so a whole-database
// snapshot sees only what the fuzzed requests did, even while other API test files run), a
// signed-in owner with a tree, people, a publication and uploads, a second user, and every kind
// of bearer token from valid to forged.
import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SignJWT, decodeJwt } from "jose";
import pg from "pg";
import { resetEnvForTests } from "@/lib/env";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { emptyNode } from "@/lib/tree/empty-node";
import { getJwtSecret } from "@/lib/server/auth/secret";
import { signToken } from "@/lib/server/auth/token";
import { publishTree } from "@/lib/server/published/publish-tree";
import { applyMigrations } from "../../scripts/lib/schema-engine";
import { api, call } from "./api";
import { type TestUser, createPerson, createTree, createUser } from "./factories";
import { makePng } from "./upload-fixtures";

/** How a request authenticates: `valid` must never see 401/403; only `invalid` may see 403. */
export type AuthValidity = "valid" | "none" | "invalid";

export interface AuthChoice {
  label: string;
  validity: AuthValidity;
  /** The Authorization header, or null for none. */
  header: string | null;
}

export interface PendingUpload {
  name: string;
  expires: string;
  signature: string;
}

export interface FuzzFixture {
  dataDir: string;
  owner: TestUser;
  other: TestUser;
  treeId: string;
  personIds: string[];
  otherTreeId: string;
  otherPersonId: string;
  /** The owner's TEMP upload (a real PNG), a crop source. */
  uploadName: string;
  otherUploadName: string;
  /** Upload URLs issued to the owner and not used yet (reset to PENDING after each accepted call). */
  pending: PendingUpload[];
  auth: AuthChoice[];
  /** A small real PNG, sent now and then so signed uploads can succeed. */
  png: Uint8Array<ArrayBuffer>;
}

type GlobalWithDb = typeof globalThis & { __heirloomDb?: PrismaClient };

let logReader: pg.Client | undefined;

async function asAdmin(databaseUrl: string, work: (client: pg.Client) => Promise<unknown>) {
  const admin = new pg.Client({
    connectionString: Object.assign(new URL(databaseUrl), { pathname: "/postgres" }).toString(),
  });
  await admin.connect();
  try {
    await work(admin);
  } finally {
    await admin.end();
  }
}

/**
 * Points this test file (its env, Prisma client and storage) at a database and data directory of
 * its own, migrated from scratch. Answers the function that drops both.
 */
export async function useOwnDatabase(): Promise<{ dataDir: string; drop: () => Promise<void> }> {
  const base = new URL(process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/heirloom");
  const name = `${base.pathname.slice(1)}_fuzz_${process.pid}`.slice(0, 63);
  const url = Object.assign(new URL(base), { pathname: `/${name}` }).toString();
  await asAdmin(url, async (admin) => {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${name}"`);
  });
  await applyMigrations({
    target: { databaseUrl: url },
    migrationsDir: "prisma/migrations",
    schemaPath: "prisma/schema.prisma",
  });
  // The fuzzer's own connection reads the write log: a plain round trip, cheaper than Prisma's.
  logReader = new pg.Client({ connectionString: url });
  await logReader.connect();
  await installWriteLog(logReader);
  // Not "heirloom-…": a sweep of other runs' temporary directories must not take this one.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "fuzzdata-"));
  process.env.DATABASE_URL = url;
  process.env.DATA_DIR = dataDir;
  resetEnvForTests();
  const g = globalThis as GlobalWithDb;
  if (g.__heirloomDb) throw new Error("The database was used before useOwnDatabase()");
  return {
    dataDir,
    drop: async () => {
      await logReader?.end();
      logReader = undefined;
      await g.__heirloomDb?.$disconnect();
      delete g.__heirloomDb;
      await asAdmin(url, (admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

async function forgedTokens(owner: TestUser): Promise<AuthChoice[]> {
  const secret = await getJwtSecret();
  const now = Math.floor(Date.now() / 1000);
  const sign = (claims: Record<string, unknown>, key: Uint8Array = secret, alg = "HS256") =>
    new SignJWT(claims).setProtectedHeader({ alg, typ: "JWT" }).sign(key);
  const wrongKey = new TextEncoder().encode("not-the-secret-but-at-least-32-characters");
  const [, payload = ""] = owner.token.split(".");
  const { aid, sid } = decodeJwt(owner.token) as { aid: string; sid: string };
  const claims = { username: owner.username, aid, sid };
  const flipped = owner.token.slice(0, -2) + (owner.token.endsWith("AA") ? "BB" : "AA");
  const invalid = (label: string, token: string): AuthChoice => ({
    label,
    validity: "invalid",
    header: `Bearer ${token}`,
  });
  return [
    invalid("alg none", `${b64({ alg: "none", typ: "JWT" })}.${payload}.`),
    invalid("wrong secret", await sign(claims, wrongKey)),
    invalid("HS512 with the right secret", await sign(claims, secret, "HS512")),
    invalid("expired", await sign({ ...claims, exp: now - 60, iat: now - 120 })),
    invalid("old shape {username, sv}", await sign({ username: owner.username, sv: 0 })),
    invalid("revoked session", await signToken({ ...claims, sid: randomUUID() })),
    invalid("another account id", await signToken({ ...claims, aid: randomUUID() })),
    invalid("unknown user", await signToken({ ...claims, username: "nobody_at_all" })),
    invalid("username not a string", await sign({ ...claims, username: 42 })),
    invalid("sid not a string", await sign({ ...claims, sid: 7 })),
    invalid("sid not a uuid", await sign({ ...claims, sid: "x'; --" })),
    invalid("no claims", await sign({})),
    invalid("NUL in username", await signToken({ ...claims, username: "a\u0000b" })),
    invalid("lone surrogate in username", await signToken({ ...claims, username: "a\ud800" })),
    invalid("huge username", await signToken({ ...claims, username: "u".repeat(100_000) })),
    invalid("tampered signature", flipped),
    invalid("token plus junk", `${owner.token}x`),
    invalid("header and payload only", owner.token.split(".").slice(0, 2).join(".")),
    invalid("junk", "junk"),
    invalid("dots", "..."),
    invalid("100 KB of junk", "A".repeat(100_000)),
    invalid("non-JSON segments", "e30.bm90IGpzb24.c2ln"),
  ];
}

function authChoices(owner: TestUser, other: TestUser, forged: AuthChoice[]): AuthChoice[] {
  const valid = (label: string, header: string): AuthChoice => ({
    label,
    validity: "valid",
    header,
  });
  return [
    { label: "none", validity: "none", header: null },
    { label: "empty", validity: "none", header: "" },
    { label: "Bearer alone", validity: "none", header: "Bearer" },
    { label: "Bearer and spaces", validity: "none", header: "Bearer    " },
    { label: "Basic", validity: "none", header: "Basic dXNlcjpwYXNz" },
    { label: "token without scheme", validity: "none", header: owner.token },
    { label: "two tokens", validity: "none", header: `Bearer ${owner.token} ${owner.token}` },
    valid("owner", `Bearer ${owner.token}`),
    valid("owner, lower-case scheme", `bearer ${owner.token}`),
    valid("owner, tab", `Bearer\t${owner.token}`),
    valid("owner, padded", `  Bearer   ${owner.token}  `),
    valid("another user", `Bearer ${other.token}`),
    ...forged,
  ];
}

interface UploadUrl {
  filename: string;
  uploadURL: string;
}

async function uploadPng(token: string, png: Uint8Array): Promise<string> {
  const url = await api.get<UploadUrl>("/api/upload/url?type=image/png&dir=avatar", { token });
  if (url.status !== 200) throw new Error(`upload url: ${url.status}`);
  const target = new URL(url.body.uploadURL);
  const put = await call("PUT", target.pathname + target.search, {
    rawBody: png as Uint8Array<ArrayBuffer>,
    headers: { "content-type": "image/png" },
  });
  if (put.status !== 200) throw new Error(`upload: ${put.status}`);
  return url.body.filename;
}

async function pendingUpload(token: string): Promise<PendingUpload> {
  const url = await api.get<UploadUrl>("/api/upload/url?type=image/png&dir=cover", { token });
  if (url.status !== 200) throw new Error(`upload url: ${url.status}`);
  const target = new URL(url.body.uploadURL);
  return {
    name: url.body.filename,
    expires: target.searchParams.get("expires") ?? "",
    signature: target.searchParams.get("signature") ?? "",
  };
}

export async function buildFixture(dataDir: string): Promise<FuzzFixture> {
  const [owner, other] = [await createUser(), await createUser()];
  const tree = await createTree(owner.token, { title: "Fuzzed legacy" });
  const people = [
    await createPerson(owner.token, tree._id),
    await createPerson(owner.token, tree._id, { firstName: "Mortimer" }),
  ];
  const data = {
    ...emptyNode(),
    person: { _id: people[0]!._id },
    partners: [{ type: "MARRIED", people: [{ _id: people[1]!._id }] }],
    children: [{ ...emptyNode(), person: { _id: people[1]!._id } }],
  };
  const saved = await api.patch(`/api/trees/${tree._id}`, { data }, { token: owner.token });
  if (saved.status !== 200) throw new Error(`tree save: ${saved.status}`);
  const published = await api.put(`/api/published/${tree._id}`, undefined, { token: owner.token });
  if (published.status !== 200) throw new Error(`publish: ${published.status}`);
  const otherTree = await createTree(other.token, { title: "Someone else's" });
  const otherPerson = await createPerson(other.token, otherTree._id);
  const png = new Uint8Array(await makePng(16, 16));
  return {
    dataDir,
    owner,
    other,
    treeId: tree._id,
    personIds: people.map((p) => p._id),
    otherTreeId: otherTree._id,
    otherPersonId: otherPerson._id,
    uploadName: await uploadPng(owner.token, png),
    otherUploadName: await uploadPng(other.token, png),
    pending: [await pendingUpload(owner.token), await pendingUpload(owner.token)],
    auth: authChoices(owner, other, await forgedTokens(owner)),
    png,
  };
}

const sqlList = (values: string[]) => values.map((v) => `'${v.replace(/'/g, "''")}'`).join(", ");

/**
 * After a write: removes what the request created and puts back what it deleted or used up (same
 * ids, so generated inputs stay meaningful), in one round trip. Accepted changes to the fixture's
 * own fields (a new title, an edited person) are kept, and so are signed-up accounts (a second
 * sign-up with the same name is then a cheap 409 instead of another argon2 hash). Files that are
 * not the fixture's images (or their resized variants) go too, so the data directory stays small.
 */
export async function restoreFixture(f: FuzzFixture): Promise<void> {
  if (!logReader) throw new Error("useOwnDatabase() first");
  const users = sqlList([f.owner.username, f.other.username]);
  const sessions = [f.owner, f.other]
    .map((u) => `(${sqlList([(decodeJwt(u.token) as { sid: string }).sid, u.username])})`)
    .join(", ");
  const trees = sqlList([f.treeId, f.otherTreeId]);
  const kept = [f.uploadName, f.otherUploadName];
  const pending = sqlList(f.pending.map((p) => p.name));
  const people = [...f.personIds.map((id) => [id, f.treeId]), [f.otherPersonId, f.otherTreeId]] as [
    string,
    string,
  ][];
  const results = (await logReader.query(`
    INSERT INTO "Session" (id, "userId") VALUES ${sessions} ON CONFLICT (id) DO NOTHING;
    DELETE FROM "Tree" WHERE id NOT IN (${trees});
    UPDATE "Tree" SET "deletedAt" = NULL WHERE id IN (${trees}) AND "deletedAt" IS NOT NULL;
    DELETE FROM "Person" WHERE id NOT IN (${sqlList(people.map(([id]) => id))});
    INSERT INTO "Person" (id, "treeId", "firstName", "updatedAt")
      VALUES ${people.map(([id, tree]) => `(${sqlList([id, tree])}, 'Restored', now())`).join(", ")}
      ON CONFLICT (id) DO NOTHING;
    DELETE FROM "Upload" WHERE id NOT IN (${sqlList(kept)}, ${pending});
    UPDATE "Upload" SET status = 'PENDING', size = NULL, width = NULL, height = NULL
      WHERE id IN (${pending}) AND status <> 'PENDING';
    DELETE FROM "PasswordResetToken";
    DELETE FROM "RateLimit" WHERE "key" LIKE 'password-check:%';
    SELECT
      (SELECT count(*)::int FROM "User" WHERE id IN (${users})) AS users,
      (SELECT count(*)::int FROM "PublishedTree" WHERE "treeId" = ${sqlList([f.treeId])}) AS published;
  `)) as unknown as pg.QueryResult<{ users: number; published: number }>[];
  const counts = results.at(-1)?.rows[0];
  if (counts?.users !== 2) throw new Error("A fuzzed request deleted a fixture account");
  if (counts.published === 0) await publishTree(f.owner.username, f.treeId);
  pruneFiles(f.dataDir, kept);
}

function pruneFiles(dir: string, keep: string[]): void {
  const walk = (current: string) => {
    for (const entry of fs.readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (!keep.some((name) => full.endsWith(`/${name}`))) fs.rmSync(full);
    }
  };
  walk(dir);
}

export interface Snapshot {
  /** The last entry of the write log (see installWriteLog). */
  lastWrite: number;
  /** Every file under the data directory with its size and modification time. */
  files: string;
}

/** Written on rejected requests by design (failed sign-ins count towards the limit). */
const NOT_STORED_DATA = ["_prisma_migrations", "RateLimit", "_fuzz_writes"];

/**
 * Logs every committed row write (and TRUNCATE) of every table but the rate-limit counters into
 * _fuzz_writes, by trigger: a rolled-back write leaves no entry, and comparing two snapshots costs
 * one indexed read however big the tables grow. An update of PublishedTree that only moves its
 * view counter is logged as VIEW. Tables added by later migrations are covered automatically.
 */
async function installWriteLog(client: pg.Client): Promise<void> {
  await client.query(`
    CREATE TABLE "_fuzz_writes" (id bigserial PRIMARY KEY, tbl text NOT NULL, op text NOT NULL);
    CREATE FUNCTION "_fuzz_log"() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'UPDATE' AND TG_TABLE_NAME = 'PublishedTree'
         AND (to_jsonb(NEW) - 'viewCount' - 'updatedAt') = (to_jsonb(OLD) - 'viewCount' - 'updatedAt') THEN
        INSERT INTO "_fuzz_writes" (tbl, op) VALUES (TG_TABLE_NAME, 'VIEW');
      ELSE
        INSERT INTO "_fuzz_writes" (tbl, op) VALUES (TG_TABLE_NAME, TG_OP);
      END IF;
      RETURN NULL;
    END $$;`);
  const { rows } = await client.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
     WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`,
  );
  for (const { name } of rows.filter((r) => !NOT_STORED_DATA.includes(r.name))) {
    const table = `"${name.replace(/"/g, '""')}"`;
    await client.query(
      `CREATE TRIGGER "_fuzz_log" AFTER INSERT OR UPDATE OR DELETE ON ${table}
         FOR EACH ROW EXECUTE FUNCTION "_fuzz_log"();
       CREATE TRIGGER "_fuzz_log_truncate" AFTER TRUNCATE ON ${table}
         FOR EACH STATEMENT EXECUTE FUNCTION "_fuzz_log"();`,
    );
  }
}

function listFiles(dir: string): string {
  if (!fs.existsSync(dir)) throw new Error(`${dir} was removed by something outside this test`);
  const entries: string[] = [];
  const walk = (current: string) => {
    for (const entry of fs.readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else {
        const stat = fs.statSync(full);
        entries.push(`${path.relative(dir, full)} ${stat.size} ${stat.mtimeMs}`);
      }
    }
  };
  walk(dir);
  return (
    createHash("md5").update(entries.sort().join("\n")).digest("hex") + ` (${entries.length} files)`
  );
}

/** Where stored data stands now: the write log's position and the data directory's files. */
export async function snapshot(dataDir: string): Promise<Snapshot> {
  if (!logReader) throw new Error("useOwnDatabase() first");
  const { rows } = await logReader.query<{ last: string | null }>(
    `SELECT max(id) AS last FROM "_fuzz_writes"`,
  );
  return { lastWrite: Number(rows[0]?.last ?? 0), files: listFiles(dataDir) };
}

/** What was written between two snapshots, e.g. ["Tree UPDATE", "PublishedTree VIEW", "files"]. */
export async function changedParts(before: Snapshot, after: Snapshot): Promise<string[]> {
  const changed: string[] = [];
  if (after.lastWrite !== before.lastWrite) {
    const { rows } = await logReader!.query<{ write: string }>(
      `SELECT DISTINCT tbl || ' ' || op AS write FROM "_fuzz_writes"
       WHERE id > $1 AND id <= $2 ORDER BY 1`,
      [before.lastWrite, after.lastWrite],
    );
    changed.push(...rows.map((w) => w.write));
  }
  if (before.files !== after.files) changed.push("files");
  return changed;
}
