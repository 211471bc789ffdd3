import "server-only";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { PersonLink } from "@/lib/schemas/person";

/**
 * Rows per INSERT statement at most, and JSON characters per statement at most (one row always
 * goes in, however long). On PGlite a statement runs on the thread that serves every request, so
 * a statement is sized to a few tens of milliseconds there: 5,000 rows of 40-line notes (4.6 MB)
 * held other requests for hundreds of milliseconds at a time. PostgreSQL pays one more round trip
 * per 256 KB, which is noise beside the rows themselves.
 */
export const PEOPLE_BATCH = { rows: 1_000, chars: 256 * 1024 } as const;

/**
 * The rows of people to insert (insertPeople's columns, with the image key in "avatarKey") as
 * JSON arrays of at most PEOPLE_BATCH rows and characters each, in order.
 */
export function peopleBatches(rows: readonly object[]): string[] {
  const batches: string[] = [];
  let open: string[] = [];
  let chars = 2;
  for (const row of rows) {
    const json = JSON.stringify(row);
    if (
      open.length > 0 &&
      (open.length >= PEOPLE_BATCH.rows || chars + json.length + 1 > PEOPLE_BATCH.chars)
    ) {
      batches.push(`[${open.join(",")}]`);
      open = [];
      chars = 2;
    }
    open.push(json);
    chars += json.length + 1;
  }
  if (open.length > 0) batches.push(`[${open.join(",")}]`);
  return batches;
}

/**
 * Inserts prepared people (prepare-import.ts), one statement per batch: the rows travel as one
 * JSON parameter that PostgreSQL unpacks with jsonb_to_recordset. With Prisma's createMany (tens
 * of thousands of bind parameters) the people alone took 9-19 s of a 10,000-Sim import on the
 * loaded, shared 2-core benchmark machine; with this the whole import took 7 s there. The batches
 * are JSON text made in a worker thread; the stored image names (`avatars`, image key → name) and
 * the links (person id → links) are joined in SQL, so the request thread never builds the rows.
 * The columns must match prisma/schema.prisma's Person.
 */
export async function insertPeople(
  tx: Prisma.TransactionClient,
  batches: readonly string[],
  avatars: ReadonlyMap<string, string>,
  links: ReadonlyMap<string, PersonLink[]>,
): Promise<void> {
  const avatarJson = JSON.stringify(Object.fromEntries(avatars));
  const linksJson = JSON.stringify(Object.fromEntries(links));
  for (const batch of batches) {
    await tx.$executeRaw`
      INSERT INTO "Person" ("id", "treeId", "avatar", "firstName", "lastName", "bio", "traits",
        "aspirations", "lifeStates", "custom", "links", "gameId", "createdAt", "updatedAt")
      SELECT r."id", r."treeId", ${avatarJson}::jsonb ->> r."avatarKey", r."firstName",
        r."lastName", r."bio",
        ARRAY(SELECT v FROM jsonb_array_elements_text(r."traits") WITH ORDINALITY AS t(v, n) ORDER BY n),
        ARRAY(SELECT v FROM jsonb_array_elements_text(r."aspirations") WITH ORDINALITY AS t(v, n) ORDER BY n),
        ARRAY(SELECT v FROM jsonb_array_elements_text(r."lifeStates") WITH ORDINALITY AS t(v, n) ORDER BY n),
        r."custom", COALESCE(${linksJson}::jsonb -> r."id", '[]'::jsonb), r."gameId", r."createdAt", r."createdAt"
      FROM jsonb_to_recordset(${batch}::jsonb) AS r(
        "id" text, "treeId" text, "avatarKey" text, "firstName" text, "lastName" text, "bio" text,
        "traits" jsonb, "aspirations" jsonb, "lifeStates" jsonb, "custom" jsonb,
        "gameId" text, "createdAt" timestamp(3)
      )`;
  }
}
