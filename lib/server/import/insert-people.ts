import "server-only";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { PersonLink } from "@/lib/schemas/person";

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
