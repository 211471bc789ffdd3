import "server-only";
import { db } from "@/lib/server/db";
import { notFound } from "@/lib/server/http/errors";
import {
  PERSON_NOT_FOUND,
  type TaggedPerson,
  ownedPerson,
  personSelect,
  taggedPerson,
} from "./serialize";

/** A person of one of the owner's trees, with its ETag; anyone else's, missing or in a deleted tree is 404. */
export async function getPersonOrThrow(ownerId: string, personId: string): Promise<TaggedPerson> {
  const row = await db.person.findFirst({
    where: ownedPerson(ownerId, personId),
    select: personSelect,
  });
  if (!row) throw notFound(PERSON_NOT_FOUND);
  return taggedPerson(row);
}
