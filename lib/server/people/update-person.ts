import "server-only";
import type { z } from "zod";
import type { Person, updatePersonFieldsBody } from "@/lib/schemas/person";
import { db } from "@/lib/server/db";
import { notFound } from "@/lib/server/errors";
import { sanitizeRichText } from "@/lib/server/sanitize";
import { asJson } from "@/lib/server/trees/serialize";
import { claimUploads } from "@/lib/server/uploads/claim-uploads";
import { PERSON_NOT_FOUND, ownedPerson, personSelect, serializePerson } from "./serialize";

export type PersonFields = z.infer<typeof updatePersonFieldsBody>;

/**
 * Replaces a person's fields with the full body sent (a PUT). Links are kept: they change only
 * through `{links}`. A `tree` in the body is ignored; a person never moves between trees.
 */
export async function updatePerson(
  ownerId: string,
  personId: string,
  fields: PersonFields,
): Promise<Person> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.person.updateMany({
      where: ownedPerson(ownerId, personId),
      data: {
        avatar: fields.avatar,
        firstName: fields.firstName,
        lastName: fields.lastName,
        bio: sanitizeRichText(fields.bio),
        traits: fields.traits,
        aspirations: fields.aspirations,
        lifeStates: fields.lifeStates,
        custom: asJson(fields.custom),
      },
    });
    if (count === 0) throw notFound(PERSON_NOT_FOUND);
    await claimUploads(tx, ownerId, [fields.avatar]);
    const row = await tx.person.findUniqueOrThrow({
      where: { id: personId },
      select: personSelect,
    });
    return serializePerson(row);
  });
}
