// The scale seed: users, trees with long-tailed sizes, their people, published copies and avatar
// uploads, written with multi-row INSERT … SELECT FROM unnest(…) batches over a few connections.
import pg from "pg";
import { hashPassword } from "@/lib/server/auth/password";
import { applyMigrations } from "../schema-engine";
import { seedAvatar, writeAvatarFiles, type SeedAvatar } from "./avatars";
import {
  DEFAULT_SIZE_MODEL,
  bucketTreesPerUser,
  PUBLISHED_SHARE,
  type SizeModel,
  drawOwner,
  drawTreeSize,
  isPublished,
  summarizeSizes,
} from "./distribution";
import { type Random, between, createRandom, randomUuid } from "./random";
import { emptyChunk, insertChunk } from "./insert";
import { SEED_PASSWORD, SEED_SETTING_KEY, type SeedMeta, readSeedMeta, seedUsername } from "./meta";
import { generateSeedTree } from "./tree";
import { termsOf } from "@/lib/server/gallery/terms";

export { SEED_PASSWORD, SEED_SETTING_KEY, readSeedMeta, seedUsername, type SeedMeta };

export interface SeedOptions {
  databaseUrl: string;
  users: number;
  trees: number;
  seed?: number;
  /**
   * What to do when the database already has users: refuse (default), add to them, empty it, or
   * resume a seed that was stopped before it finished (same options: it regenerates the same rows
   * and writes only the chunks that are not there yet).
   */
  mode?: "refuse" | "append" | "reset" | "resume";
  /** Where local-disk storage keeps uploads (DATA_DIR/uploads); avatar files go there. */
  uploadsDir: string;
  /** People with a real avatar file (each with its own Upload row). */
  avatars?: number;
  sizeModel?: SizeModel;
  /** Skips applying migrations (the caller did). */
  skipMigrations?: boolean;
  log?: (line: string) => void;
}

const TABLES = [
  "PublishedTree",
  "Person",
  "Upload",
  "PasswordResetToken",
  "Tree",
  "User",
  "RateLimit",
];
/** A chunk (one transaction) closes at this many people or trees. */
const CHUNK_PEOPLE = 12_000;
const CHUNK_TREES = 1_000;
const IN_FLIGHT = 2;
const EPOCH = Date.UTC(2021, 0, 1);
const SPAN_MS = Date.UTC(2025, 5, 1) - EPOCH;

const INSERT_USERS = `
  INSERT INTO "User" ("id", "email", "passwordHash", "createdAt", "updatedAt")
  SELECT u.id, u.email, $3, u.created, u.created
  FROM unnest($1::text[], $2::text[], $4::timestamp[]) AS u(id, email, created)`;

const iso = (ms: number) => new Date(ms).toISOString();

/** How long a write waits for PostgreSQL to come back (a restart, a cut connection). */
const RETRY_DELAY_MS = 2_000;
const RETRIES = 90;
/** SQLSTATEs and socket errors after which PostgreSQL or the connection went away. */
const CONNECTION_ERRORS = new Set([
  "57P01", // admin_shutdown, also pg_terminate_backend
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now: starting up or shutting down
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
]);

/** True when the error says the server or the connection went away (worth waiting and retrying). */
export function isConnectionError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" && CONNECTION_ERRORS.has(code)) return true;
  return /Connection terminated|connection (?:error|is closed)|terminating connection/i.test(
    error.message,
  );
}

/**
 * Runs one idempotent step of the seed, again after a lost connection or a PostgreSQL restart
 * (for up to RETRIES x RETRY_DELAY_MS): a seed of the full scale runs for a quarter of an hour or
 * more, and a restart at minute 40 used to throw all of it away.
 */
async function retrying<T>(what: string, step: () => Promise<T>, log: (line: string) => void) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await step();
    } catch (error) {
      if (!isConnectionError(error) || attempt >= RETRIES) throw error;
      log(`${what}: ${(error as Error).message}; again in ${RETRY_DELAY_MS / 1000} s (${attempt})`);
      await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS));
    }
  }
}

/** A chunk or a batch is one transaction: its first row is there exactly when all of it is. */
async function written(pool: pg.Pool, table: "User" | "Tree", id: string): Promise<boolean> {
  const { rowCount } = await pool.query(`SELECT 1 FROM "${table}" WHERE "id" = $1`, [id]);
  return (rowCount ?? 0) > 0;
}

export async function seedScale(options: SeedOptions): Promise<SeedMeta> {
  const log = options.log ?? ((line: string) => console.log(line));
  const seed = options.seed ?? 1;
  const model = options.sizeModel ?? DEFAULT_SIZE_MODEL;
  const started = performance.now();
  if (!options.skipMigrations) {
    await applyMigrations({
      target: { databaseUrl: options.databaseUrl },
      migrationsDir: "prisma/migrations",
      schemaPath: "prisma/schema.prisma",
    });
  }
  // A seed can be re-run from scratch; losing its last second in a crash costs nothing.
  const pool = new pg.Pool({
    connectionString: options.databaseUrl,
    max: IN_FLIGHT + 1,
    options: "-c synchronous_commit=off",
  });
  // An idle connection cut by a restart is dropped by the pool; the next write reconnects.
  pool.on("error", (error) => log(`PostgreSQL: ${error.message}`));
  const retry = <T>(what: string, step: () => Promise<T>) => retrying(what, step, log);
  try {
    const { rows } = await retry("Counting users", () =>
      pool.query<{ users: number }>(`SELECT count(*)::int AS users FROM "User"`),
    );
    const existingUsers = rows[0]?.users ?? 0;
    let previous: SeedMeta | null = null;
    const mode = options.mode ?? "refuse";
    if (mode === "resume") {
      if (await readSeedMeta(pool)) {
        throw new Error("The seed of this database finished already: nothing to resume");
      }
      log(`Resuming: ${existingUsers} users are there; rows already written are skipped`);
    } else if (existingUsers > 0) {
      if (mode === "refuse") {
        throw new Error(
          `The database already has ${existingUsers} users; pass --append to add to them or --reset to empty it first`,
        );
      }
      if (mode === "reset") {
        log("Emptying the database (--reset)…");
        await pool.query(`TRUNCATE ${TABLES.map((t) => `"${t}"`).join(", ")} CASCADE`);
        await pool.query(`DELETE FROM "Setting" WHERE "key" = $1`, [SEED_SETTING_KEY]);
      } else {
        previous = await readSeedMeta(pool);
      }
    }
    // Appending continues the numbering (and the random stream, offset) of the previous seed.
    const userOffset = previous?.users ?? 0;
    const treeOffset = previous?.trees ?? 0;
    const ownerPool = userOffset + options.users;
    if (ownerPool === 0 && options.trees > 0) throw new Error("Trees need users: pass --users");

    log(`Hashing the shared password once (argon2id)…`);
    const passwordHash = await hashPassword(SEED_PASSWORD);
    let rowsWritten = 0;
    const rate = () => Math.round(rowsWritten / ((performance.now() - started) / 1000));

    // Users.
    const userRand = createRandom(seed ^ 0x5eed ^ userOffset);
    for (let start = 0; start < options.users; start += 5_000) {
      const count = Math.min(5_000, options.users - start);
      const ids = Array.from({ length: count }, (_, i) => seedUsername(userOffset + start + i));
      const created = ids.map(() => iso(EPOCH + Math.floor(userRand() * SPAN_MS)));
      const wrote = await retry(`Users ${start}-${start + count - 1}`, async () => {
        if (await written(pool, "User", ids[0]!)) return false;
        await pool.query(INSERT_USERS, [
          ids,
          ids.map((id) => `${id.toLowerCase()}@example.test`),
          passwordHash,
          created,
        ]);
        return true;
      });
      if (wrote) rowsWritten += count;
    }
    log(`Users: ${options.users} (${rate()} rows/s)`);

    // Trees, people, uploads and published copies, chunk by chunk, two chunks in flight.
    const sizeRand = createRandom(seed + treeOffset);
    const rand: Random = createRandom((seed * 31 + 7 + treeOffset) >>> 0);
    const newId = () => randomUuid(rand);
    const avatarsWanted = options.avatars ?? 200;
    const avatarStep = Math.max(1, Math.floor(options.trees / Math.max(1, avatarsWanted)));
    const avatars: SeedAvatar[] = [];
    const sizes: number[] = [];
    const treesPerOwner = new Array<number>(ownerPool).fill(0);
    let people = 0;
    let published = 0;
    let listed = 0;
    let chunk = emptyChunk();
    const inFlight = new Set<Promise<void>>();
    let failure: Error | undefined;
    let lastLog = performance.now();

    const flush = async () => {
      if (chunk.trees.length === 0) return;
      const sent = chunk;
      chunk = emptyChunk();
      const rowsInChunk =
        sent.trees.length + sent.people.length + sent.uploads.length + sent.published.length;
      const job = retry(`Chunk of ${sent.trees.length} trees`, async () => {
        if (await written(pool, "Tree", sent.trees[0]!.id)) return false;
        await insertChunk(pool, sent);
        return true;
      }).then(
        (wrote) => {
          if (wrote) rowsWritten += rowsInChunk;
        },
        (error: unknown) => {
          failure ??= error instanceof Error ? error : new Error(String(error));
        },
      );
      inFlight.add(job);
      void job.finally(() => inFlight.delete(job));
      while (inFlight.size >= IN_FLIGHT) await Promise.race(inFlight);
      if (failure) throw failure;
    };

    for (let i = 0; i < options.trees; i += 1) {
      const treeIndex = treeOffset + i;
      const sims = drawTreeSize(sizeRand, model);
      sizes.push(sims);
      const ownerIndex = drawOwner(rand, ownerPool);
      treesPerOwner[ownerIndex] = (treesPerOwner[ownerIndex] ?? 0) + 1;
      const owner = seedUsername(ownerIndex);
      const treeId = newId();
      const generated = generateSeedTree(rand, sims, newId);
      const created = EPOCH + Math.floor(rand() * SPAN_MS);
      const founder = generated.people[0]!;
      chunk.trees.push({
        id: treeId,
        owner,
        title: `The ${founder.lastName} Legacy${rand() < 0.3 ? ` ${between(rand, 2, 5)}` : ""}`,
        description:
          rand() < 0.5
            ? ""
            : `<p>A legacy started by <strong>${founder.firstName || "a Sim"}</strong>.</p>`,
        data: JSON.stringify(generated.data),
        version: between(rand, 1, 60),
        created: iso(created),
      });
      let avatar: string | null = null;
      if (i % avatarStep === 0 && avatars.length < avatarsWanted) {
        const made = seedAvatar(seed, treeOffset + avatars.length);
        avatars.push(made);
        avatar = made.name;
        chunk.uploads.push({ avatar: made, owner, size: 0, created: iso(created) });
      }
      generated.people.forEach((person, index) => {
        chunk.people.push({
          ...person,
          tree: treeId,
          avatar: index === 0 ? avatar : null,
          created: iso(created + index * 1000),
        });
      });
      people += generated.people.length;
      if (isPublished(treeIndex, PUBLISHED_SHARE)) {
        chunk.published.push(treeId);
        // A third of published trees are listed in the Gallery (issue 25).
        if (published % 3 === 0) {
          const tree = chunk.trees[chunk.trees.length - 1]!;
          chunk.listed.push({
            treeId,
            terms: termsOf({
              title: tree.title,
              description: tree.description,
              names: generated.people.map((p) => `${p.firstName} ${p.lastName}`),
            }),
          });
          listed += 1;
        }
        published += 1;
      }
      if (chunk.people.length >= CHUNK_PEOPLE || chunk.trees.length >= CHUNK_TREES) {
        await flush();
      }
      if (performance.now() - lastLog > 3_000) {
        lastLog = performance.now();
        log(
          `Trees: ${i + 1}/${options.trees}, people ${people}, published ${published} (${rate()} rows/s)`,
        );
      }
    }
    await flush();
    await Promise.all(inFlight);
    if (failure) throw failure;

    // Avatar files, then their real sizes on the Upload rows.
    const fileSizes = await writeAvatarFiles(options.uploadsDir, avatars);
    if (avatars.length > 0) {
      await retry("Avatar sizes", () =>
        pool.query(
          `UPDATE "Upload" u SET "size" = s.size FROM unnest($1::text[], $2::int[]) AS s(id, size)
           WHERE u."id" = s.id`,
          [avatars.map((a) => a.name), fileSizes],
        ),
      );
    }
    log(`Avatars: ${avatars.length} files in ${options.uploadsDir}`);
    log("ANALYZE…");
    await retry("ANALYZE", () => pool.query("ANALYZE"));

    const seconds = (performance.now() - started) / 1000;
    const sizeSummary = summarizeSizes(sizes);
    const meta: SeedMeta = {
      users: userOffset + options.users,
      trees: treeOffset + options.trees,
      people: (previous?.people ?? 0) + people,
      published: (previous?.published ?? 0) + published,
      uploads: (previous?.uploads ?? 0) + avatars.length,
      seed,
      seconds: Math.round(((previous?.seconds ?? 0) + seconds) * 10) / 10,
      rowsPerSecond: Math.round(rowsWritten / seconds),
      passwordNote: `Every seeded user's password is "${SEED_PASSWORD}"; one argon2id hash of it (with one salt) is shared by all of them, so seeding does not spend ~50 ms of argon2 per user.`,
      sizes: sizeSummary,
      treesPerUser: bucketTreesPerUser(treesPerOwner),
      seededAt: new Date().toISOString(),
    };
    await retry("Seed metadata", () =>
      pool.query(
        `INSERT INTO "Setting" ("key", "value", "createdAt", "updatedAt")
         VALUES ($1, $2, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)
         ON CONFLICT ("key") DO UPDATE SET "value" = EXCLUDED."value", "updatedAt" = CURRENT_TIMESTAMP`,
        [SEED_SETTING_KEY, JSON.stringify(meta)],
      ),
    );
    log(
      `Seeded ${options.users} users, ${options.trees} trees, ${people} people, ${published} published (${listed} listed), ` +
        `${avatars.length} avatars in ${seconds.toFixed(1)} s (${meta.rowsPerSecond} rows/s)`,
    );
    return meta;
  } finally {
    await pool.end();
  }
}
