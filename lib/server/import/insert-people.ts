import "server-only";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { PersonLink } from "@/lib/schemas/person";
import type { ClippedPerson } from "./clip";

export interface PersonRow extends ClippedPerson {
  id: string;
  treeId: string;
  avatar: string | null;
  links: PersonLink[];
  createdAt: Date;
}

/**
 * Inserts people in one statement per 5,000 rows: the rows travel as one JSON parameter that
 * PostgreSQL unpacks with jsonb_to_recordset. With Prisma's createMany (tens of thousands of bind
 * parameters) the people alone took 9-19 s of a 10,000-Sim import on the loaded, shared 2-core
 * benchmark machine; with this the whole import took 7 s there. The columns must match
 * prisma/schema.prisma's Person.
 */
export async function insertPeople(tx: Prisma.TransactionClient, rows: PersonRow[]): Promise<void> {
  const BATCH = 5_000;
  for (let start = 0; start < rows.length; start += BATCH) {
    const batch = rows.slice(start, start + BATCH).map((row) => ({
      ...row,
      createdAt: row.createdAt.toISOString(),
    }));
    await tx.$executeRaw`
      INSERT INTO "Person" ("id", "treeId", "avatar", "firstName", "lastName", "bio", "traits",
        "aspirations", "lifeStates", "custom", "links", "gameId", "createdAt", "updatedAt")
      SELECT r."id", r."treeId", r."avatar", r."firstName", r."lastName", r."bio",
        ARRAY(SELECT v FROM jsonb_array_elements_text(r."traits") WITH ORDINALITY AS t(v, n) ORDER BY n),
        ARRAY(SELECT v FROM jsonb_array_elements_text(r."aspirations") WITH ORDINALITY AS t(v, n) ORDER BY n),
        ARRAY(SELECT v FROM jsonb_array_elements_text(r."lifeStates") WITH ORDINALITY AS t(v, n) ORDER BY n),
        r."custom", r."links", r."gameId", r."createdAt", r."createdAt"
      FROM jsonb_to_recordset(${JSON.stringify(batch)}::jsonb) AS r(
        "id" text, "treeId" text, "avatar" text, "firstName" text, "lastName" text, "bio" text,
        "traits" jsonb, "aspirations" jsonb, "lifeStates" jsonb, "custom" jsonb, "links" jsonb,
        "gameId" text, "createdAt" timestamp(3)
      )`;
  }
}
