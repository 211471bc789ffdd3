// Bulk inserts for the scale seed: one multi-row INSERT … SELECT FROM unnest(…) per table and
// batch, every array passed as one parameter (COPY would need pg-copy-streams).
import type pg from "pg";
import { INSERT_PUBLISHED_TREE, PUBLISHED_COPY_COLUMNS } from "@/lib/server/sql/publish";
import type { GalleryTermRow } from "@/lib/server/gallery/terms";
import type { SeedAvatar } from "./avatars";
import type { SeedPerson } from "./tree";

/** Person rows per INSERT statement. */
const PEOPLE_PER_STATEMENT = 8_000;
/** Separates array items inside one text value; no generated trait or state contains it. */
const SEP = "\u001f";

const INSERT_TREES = `
  INSERT INTO "Tree" ("id", "ownerId", "title", "description", "cover", "data", "version",
    "createdAt", "updatedAt")
  SELECT t.id, t.owner, t.title, t.description, NULL, t.data::jsonb, t.version, t.created, t.created
  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[],
    $7::timestamp[]) AS t(id, owner, title, description, data, version, created)`;

const INSERT_PEOPLE = `
  INSERT INTO "Person" ("id", "treeId", "avatar", "firstName", "lastName", "bio", "traits",
    "aspirations", "lifeStates", "custom", "links", "createdAt", "updatedAt")
  SELECT p.id, p.tree, p.avatar, p.first, p.last, p.bio, string_to_array(p.traits, chr(31)),
    string_to_array(p.aspirations, chr(31)), string_to_array(p.states, chr(31)), p.custom::jsonb,
    '[]'::jsonb, p.created, p.created
  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
    $8::text[], $9::text[], $10::text[], $11::timestamp[])
    AS p(id, tree, avatar, first, last, bio, traits, aspirations, states, custom, created)`;

const INSERT_UPLOADS = `
  INSERT INTO "Upload" ("id", "ownerId", "dir", "contentType", "status", "size", "width", "height",
    "urlExpiresAt", "createdAt", "updatedAt")
  SELECT u.id, u.owner, 'avatar', u.type, 'USED', u.size, u.width, u.height,
    u.created + interval '1 hour', u.created, u.created
  FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::int[], $6::int[],
    $7::timestamp[]) AS u(id, owner, type, size, width, height, created)`;

/** The same copy as lib/server/published/publish-tree.ts makes, for many trees at once. */
const PUBLISH_TREES = `${INSERT_PUBLISHED_TREE}
  SELECT ${PUBLISHED_COPY_COLUMNS}, t."updatedAt", t."updatedAt"
  FROM "Tree" t
  WHERE t."id" = ANY($1::text[])`;

/** Lists published copies in the Gallery with their search words (as setGalleryListing does). */
const LIST_TREES = `
  UPDATE "PublishedTree" SET "listed" = true, "shown" = true WHERE "treeId" = ANY($1::text[])`;
const INSERT_TERMS = `
  INSERT INTO "GalleryTerm" ("term", "treeId", "field")
  SELECT * FROM unnest($1::text[], $2::text[], $3::smallint[])`;

export interface Chunk {
  trees: {
    id: string;
    owner: string;
    title: string;
    description: string;
    data: string;
    version: number;
    created: string;
  }[];
  people: (SeedPerson & { tree: string; avatar: string | null; created: string })[];
  uploads: { avatar: SeedAvatar; owner: string; size: number; created: string }[];
  published: string[];
  /** Published copies also listed in the Gallery, with their search words. */
  listed: { treeId: string; terms: GalleryTermRow[] }[];
}

export const emptyChunk = (): Chunk => ({
  trees: [],
  people: [],
  uploads: [],
  published: [],
  listed: [],
});

/** Writes one chunk (trees, then their people, uploads and published copies) in one transaction. */
export async function insertChunk(pool: pg.Pool, chunk: Chunk): Promise<void> {
  const client = await pool.connect();
  let broken: Error | undefined;
  // A checked-out client reports a lost connection as an 'error' event as well as through the
  // pending query; without a listener that event would end the process (a PostgreSQL restart).
  const onError = (error: Error) => (broken ??= error);
  client.on("error", onError);
  try {
    await client.query("BEGIN");
    const t = chunk.trees;
    await client.query(INSERT_TREES, [
      t.map((r) => r.id),
      t.map((r) => r.owner),
      t.map((r) => r.title),
      t.map((r) => r.description),
      t.map((r) => r.data),
      t.map((r) => r.version),
      t.map((r) => r.created),
    ]);
    for (let start = 0; start < chunk.people.length; start += PEOPLE_PER_STATEMENT) {
      const p = chunk.people.slice(start, start + PEOPLE_PER_STATEMENT);
      await client.query(INSERT_PEOPLE, [
        p.map((r) => r.id),
        p.map((r) => r.tree),
        p.map((r) => r.avatar),
        p.map((r) => r.firstName),
        p.map((r) => r.lastName),
        p.map((r) => r.bio),
        p.map((r) => r.traits.join(SEP)),
        p.map((r) => r.aspirations.join(SEP)),
        p.map((r) => r.lifeStates.join(SEP)),
        p.map((r) => r.custom),
        p.map((r) => r.created),
      ]);
    }
    if (chunk.uploads.length > 0) {
      const u = chunk.uploads;
      await client.query(INSERT_UPLOADS, [
        u.map((r) => r.avatar.name),
        u.map((r) => r.owner),
        u.map((r) => r.avatar.contentType),
        u.map((r) => r.size),
        u.map((r) => r.avatar.width),
        u.map((r) => r.avatar.height),
        u.map((r) => r.created),
      ]);
    }
    if (chunk.published.length > 0) await client.query(PUBLISH_TREES, [chunk.published]);
    if (chunk.listed.length > 0) {
      await client.query(LIST_TREES, [chunk.listed.map((l) => l.treeId)]);
      const terms = chunk.listed.flatMap((l) => l.terms.map((t) => ({ ...t, treeId: l.treeId })));
      for (let start = 0; start < terms.length; start += PEOPLE_PER_STATEMENT) {
        const batch = terms.slice(start, start + PEOPLE_PER_STATEMENT);
        await client.query(INSERT_TERMS, [
          batch.map((t) => t.term),
          batch.map((t) => t.treeId),
          batch.map((t) => t.field),
        ]);
      }
    }
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    broken = error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    // A client whose transaction failed is closed, not handed back: its connection may be gone.
    client.off("error", onError);
    client.release(broken);
  }
}
