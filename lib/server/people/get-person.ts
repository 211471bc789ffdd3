import "server-only";
import type { Person } from "@/lib/schemas/person";
import { db } from "@/lib/server/db";
import { notFound } from "@/lib/server/errors";
import { PERSON_NOT_FOUND, ownedPerson, personSelect, serializePerson } from "./serialize";

/** A person of one of the owner's trees; anyone else's, missing or in a deleted tree is 404. */
export async function getPersonOrThrow(ownerId: string, personId: string): Promise<Person> {
  const row = await db.person.findFirst({
    where: ownedPerson(ownerId, personId),
    select: personSelect,
  });
  if (!row) throw notFound(PERSON_NOT_FOUND);
  return serializePerson(row);
}
