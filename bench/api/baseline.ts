/**
 * The API benchmark's baseline: the same reads and writes as the app, on node:http and pg with no
 * framework and no ORM, against the same database with the same SQL text (lib/server/sql/reads.ts), the same auth check
 * (HS256 JWT with jose, then the token's session and account) and the same validation of tree saves
 * (lib/schemas/tree.ts), the same JSON text built by PostgreSQL for the reads and the same API
 * security headers (lib/security-headers.ts). Sign-in does what lib/server/account/sign-in.ts
 * does: two rate-limit counters, the user, argon2 verify, the refund, a signed token. No request
 * logs.
 *
 * Env: PORT, DATABASE_URL, JWT_SECRET, UPLOADS_DIR, PG_POOL_MAX (default 10, like PrismaPg's pool).
 */
import { createHash, randomUUID } from "node:crypto";
import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import argon2 from "argon2";
import { SignJWT, jwtVerify } from "jose";
import pg from "pg";
import sharp from "sharp";
import { apiSecurityHeaders } from "@/lib/security-headers";
import {
  PEOPLE_JSON_SQL,
  PEOPLE_WORK_MEM,
  PUBLISHED_JSON_SQL,
  SESSION_USER_SQL,
  TREE_JSON_SQL,
} from "@/lib/server/sql/reads";
import { treeData, type TreeNode } from "@/lib/schemas/tree";

const PORT = Number(process.env.PORT ?? 3313);
const DATABASE_URL = process.env.DATABASE_URL;
const JWT_SECRET = process.env.JWT_SECRET;
const UPLOADS_DIR = path.resolve(process.env.UPLOADS_DIR ?? ".data/bench-api/uploads");
if (!DATABASE_URL || !JWT_SECRET) throw new Error("DATABASE_URL and JWT_SECRET are required");

const pool = new pg.Pool({
  connectionString: DATABASE_URL,
  max: Number(process.env.PG_POOL_MAX ?? 10),
});
// A connection dropped by a PostgreSQL restart is replaced by the pool; it must not end the process.
pool.on("error", (error) => console.error(`pg pool: ${error.message}`));
const secret = new TextEncoder().encode(JWT_SECRET);
const MAX_BODY = 16 * 1024 * 1024;

class HttpError extends Error {
  constructor(
    readonly status: number,
    detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

/** JSON text as it is (PostgreSQL wrote it), with the app's API headers. */
function sendText(
  res: http.ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, {
    ...apiSecurityHeaders(false),
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
    ...headers,
  });
  res.end(text);
}

function send(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  sendText(res, status, JSON.stringify(body), headers);
}

async function readBody(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > MAX_BODY) throw new HttpError(413, "The request body is too large");
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HttpError(400, "The request body must be valid JSON");
  }
}

async function authenticate(req: http.IncomingMessage): Promise<string> {
  const match = /^Bearer\s+(\S+)$/i.exec((req.headers.authorization ?? "").trim());
  if (!match?.[1]) throw new HttpError(401, "Looks like you're not logged in");
  let username: unknown;
  let aid: unknown;
  let sid: unknown;
  try {
    ({
      payload: { username, aid, sid },
    } = await jwtVerify(match[1], secret, { algorithms: ["HS256"] }));
  } catch {
    throw new HttpError(403, "You're session expired. Please login again.");
  }
  if (typeof username !== "string" || typeof aid !== "string" || typeof sid !== "string") {
    throw new HttpError(403, "You're session expired. Please login again.");
  }
  const { rows } = await pool.query<{ id: string }>(SESSION_USER_SQL, [sid, username, aid]);
  if (!rows[0]) {
    throw new HttpError(403, "You're session expired. Please login again.");
  }
  return username;
}

const ID = /^[A-Za-z0-9_-]{1,64}$/;

/** lib/server/trees/get-tree.ts getTreeJson: PostgreSQL writes the answer's JSON. */
async function getTree(ownerId: string, treeId: string) {
  if (!ID.test(treeId)) throw new HttpError(404, "Tree not found");
  const { rows } = await pool.query<{ json: string; version: number }>(TREE_JSON_SQL, [
    treeId,
    ownerId,
  ]);
  const row = rows[0];
  if (!row) throw new HttpError(404, "Tree not found");
  return row;
}

function referencedPeople(root: TreeNode): string[] {
  const ids = new Set<string>();
  const stack: TreeNode[] = [root];
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.person) ids.add(node.person._id);
    for (const partner of node.partners) for (const p of partner.people) ids.add(p._id);
    for (const p of node.parents) ids.add(p._id);
    for (const p of node.adoptiveParents) ids.add(p._id);
    for (const child of node.children) stack.push(child);
  }
  return [...ids];
}

async function saveTree(ownerId: string, treeId: string, body: unknown, ifMatch?: string) {
  if (!body || typeof body !== "object" || !("data" in body)) {
    throw new HttpError(400, "Send {data}");
  }
  const parsed = treeData.safeParse(body.data);
  if (!parsed.success) throw new HttpError(400, parsed.error.issues[0]?.message ?? "Invalid tree");
  const data = parsed.data;
  const match = ifMatch ? /^(?:W\/)?"?(\d{1,9})"?$/.exec(ifMatch.trim()) : null;
  const expected = match?.[1] ? Number(match[1]) : undefined;
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    const locked = await client.query<{ version: number }>(
      `SELECT "version" FROM "Tree"
       WHERE "id" = $1 AND "ownerId" = $2 AND "deletedAt" IS NULL FOR UPDATE`,
      [treeId, ownerId],
    );
    const current = locked.rows[0];
    if (!current) throw new HttpError(404, "Tree not found");
    if (expected !== undefined && expected !== current.version) {
      throw new HttpError(409, "This tree was changed somewhere else.", {
        ETag: `"${current.version}"`,
      });
    }
    const ids = referencedPeople(data);
    if (ids.length > 0) {
      const missing = await client.query(
        `SELECT ref."id" FROM unnest($1::text[]) WITH ORDINALITY AS ref("id", "position")
         WHERE NOT EXISTS (SELECT 1 FROM "Person" p WHERE p."id" = ref."id" AND p."treeId" = $2)
         ORDER BY ref."position"`,
        [ids, treeId],
      );
      if (missing.rows.length > 0) throw new HttpError(400, "The tree refers to unknown people");
    }
    const updated = await client.query<{ version: number }>(
      `UPDATE "Tree" SET "data" = $1::jsonb, "version" = "version" + 1,
         "updatedAt" = CURRENT_TIMESTAMP
       WHERE "id" = $2 RETURNING "version"`,
      [JSON.stringify(data), treeId],
    );
    await client.query("COMMIT");
    return { _id: treeId, version: updated.rows[0]!.version };
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** lib/server/people/list-people.ts listPeopleJson: one statement in a transaction. */
async function listPeople(ownerId: string, treeId: string): Promise<string> {
  if (!ID.test(treeId)) throw new HttpError(400, "Not a valid id");
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query(`SET LOCAL work_mem = '${PEOPLE_WORK_MEM}'`);
    const { rows } = await client.query<{ json: string }>(PEOPLE_JSON_SQL, [treeId, ownerId]);
    await client.query("COMMIT");
    const row = rows[0];
    if (!row) throw new HttpError(404, "Tree not found");
    return row.json;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** lib/server/published/get-published-tree.ts getPublishedTreeJson. */
async function getPublished(treeId: string): Promise<string> {
  if (!ID.test(treeId)) throw new HttpError(404, "This tree is not published");
  const { rows } = await pool.query<{ json: string }>(PUBLISHED_JSON_SQL, [treeId]);
  const row = rows[0];
  if (!row) throw new HttpError(404, "This tree is not published");
  return row.json;
}

const IMAGE = /^(avatar|cover)\/[A-Za-z0-9_-]+\.(png|jpe?g)$/;
const SIZES = new Set(["200x200", "600x320", "100x100", "1200x640"]);

async function serveResized(res: http.ServerResponse, size: string, name: string) {
  if (!SIZES.has(size) || !IMAGE.test(name)) throw new HttpError(404, "Image not found");
  const contentType = name.endsWith(".png") ? "image/png" : "image/jpeg";
  const variant = path.join(UPLOADS_DIR, "variants", size, name);
  let stat = await fs.stat(variant).catch(() => null);
  if (!stat) {
    const original = await fs.readFile(path.join(UPLOADS_DIR, name)).catch(() => null);
    if (!original) throw new HttpError(404, "Image not found");
    const [width, height] = size.split("x").map(Number);
    const resized = sharp(original).resize(width, height, { fit: "cover" });
    const bytes = await (
      contentType === "image/png" ? resized.png() : resized.jpeg({ quality: 85 })
    ).toBuffer();
    await fs.mkdir(path.dirname(variant), { recursive: true });
    await fs.writeFile(`${variant}.tmp`, bytes);
    await fs.rename(`${variant}.tmp`, variant);
    stat = await fs.stat(variant);
  }
  res.writeHead(200, {
    "content-type": contentType,
    "content-length": stat.size,
    "cache-control": "public, max-age=31536000, immutable",
    "x-content-type-options": "nosniff",
    "content-security-policy": "default-src 'none'",
  });
  createReadStream(variant).pipe(res);
}

const RATE_LIMIT = `
  INSERT INTO "RateLimit" ("key", "count", "resetAt", "createdAt", "updatedAt")
  VALUES ($1, 1, (now() AT TIME ZONE 'UTC') + $2::float8 * interval '1 second',
    now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC')
  ON CONFLICT ("key") DO UPDATE SET
    "count" = CASE WHEN "RateLimit"."resetAt" <= EXCLUDED."updatedAt"
      THEN 1 ELSE "RateLimit"."count" + 1 END,
    "resetAt" = CASE WHEN "RateLimit"."resetAt" <= EXCLUDED."updatedAt"
      THEN EXCLUDED."resetAt" ELSE "RateLimit"."resetAt" END,
    "updatedAt" = EXCLUDED."updatedAt"
  RETURNING "count", CEIL(EXTRACT(EPOCH FROM ("resetAt" - "updatedAt")))::int AS "retryAfter"`;

const counterKey = (name: string, id: string) =>
  `${name}:${createHash("sha256").update(id, "utf8").digest("base64url")}`;

async function hitLimit(name: string, id: string, limit: number) {
  const { rows } = await pool.query<{ count: number }>(RATE_LIMIT, [counterKey(name, id), 900]);
  if (Number(rows[0]?.count) > limit) throw new HttpError(429, "Too many sign-in attempts.");
}

async function signIn(body: unknown, ip: string) {
  const { username, password } = (body ?? {}) as { username?: unknown; password?: unknown };
  if (typeof username !== "string" || typeof password !== "string" || !password) {
    throw new HttpError(400, "Username and password are required");
  }
  await hitLimit("signin:ip", ip, 100);
  await hitLimit("signin:username", username, 10);
  const { rows } = await pool.query<{ id: string; passwordHash: string; accountId: string }>(
    `SELECT "id", "passwordHash", "accountId" FROM "User" WHERE "id" = $1 LIMIT 1`,
    [username],
  );
  const user = rows[0];
  const valid = user ? await argon2.verify(user.passwordHash, password).catch(() => false) : false;
  if (!user || !valid) throw new HttpError(400, "Incorrect username or password");
  await pool.query(
    `UPDATE "RateLimit" SET "count" = GREATEST("count" - 1, 0)
     WHERE "key" = $1 AND "resetAt" > now() AT TIME ZONE 'UTC'`,
    [counterKey("signin:username", username)],
  );
  const sid = randomUUID();
  await pool.query(`INSERT INTO "Session" ("id", "userId") VALUES ($1, $2)`, [sid, user.id]);
  const token = await new SignJWT({ username: user.id, aid: user.accountId, sid })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuedAt()
    .setExpirationTime("30d")
    .sign(secret);
  return { token };
}

async function route(req: http.IncomingMessage, res: http.ServerResponse) {
  const url = new URL(req.url ?? "/", "http://baseline");
  const parts = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
  const method = req.method ?? "GET";
  if (parts[0] !== "api") throw new HttpError(404, "Not found");
  const [, resource, id, ...rest] = parts;
  if (resource === "version") return send(res, 200, { version: "baseline" });
  if (resource === "trees" && id && rest.length === 0) {
    const user = await authenticate(req);
    if (method === "GET") {
      const tree = await getTree(user, id);
      return sendText(res, 200, tree.json, { ETag: `"${tree.version}"` });
    }
    if (method === "PATCH" || method === "PUT") {
      const body = await readBody(req);
      const saved = await saveTree(user, id, body, req.headers["if-match"]);
      return send(res, 200, saved, { ETag: `"${saved.version}"` });
    }
  }
  if (resource === "people" && !id && method === "GET") {
    const user = await authenticate(req);
    return sendText(res, 200, await listPeople(user, url.searchParams.get("tree") ?? ""));
  }
  if (resource === "published" && id && method === "GET") {
    return sendText(res, 200, await getPublished(id));
  }
  if (resource === "upload" && id && method === "GET") return serveResized(res, id, rest.join("/"));
  if (resource === "account" && id === "signin" && method === "POST") {
    const forwarded = String(req.headers["x-forwarded-for"] ?? "")
      .split(",")[0]
      ?.trim();
    return send(res, 200, await signIn(await readBody(req), forwarded || "unknown"));
  }
  throw new HttpError(404, "Not found");
}

const server = http.createServer((req, res) => {
  route(req, res).catch((error: unknown) => {
    if (error instanceof HttpError) {
      send(res, error.status, { errors: [{ detail: error.message }] }, error.headers);
    } else {
      console.error(error);
      send(res, 500, { errors: [{ detail: "Something went wrong" }] });
    }
  });
});
server.listen(PORT, () => console.log(`baseline listening on ${PORT}`));
const stop = () => {
  server.close();
  server.closeAllConnections();
  void pool.end().finally(() => process.exit(0));
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
