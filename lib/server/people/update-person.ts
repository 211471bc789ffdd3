import "server-only";
import type { z } from "zod";
import type { updatePersonFieldsBody } from "@/lib/schemas/person";
import { db } from "@/lib/server/db";
import { sanitizeRichText } from "@/lib/server/sanitize";
import { asJson } from "@/lib/server/trees/serialize";
import { claimUploads } from "@/lib/server/uploads/claim-uploads";
import { refuseUnwrittenPerson } from "./refuse-unwritten";
import { type TaggedPerson, ownedPerson, personSelect, taggedPerson } from "./serialize";

export type PersonFields = z.infer<typeof updatePersonFieldsBody>;

/**
 * Replaces a person's fields with the full body sent (a PUT). Links are kept: they change only
 * through `{links}`. A `tree` in the body is ignored; a person never moves between trees. With
 * `expectedVersion` (from If-Match) an edit of any other version is refused with 409.
 */
export async function updatePerson(
  ownerId: string,
  personId: string,
  fields: PersonFields,
  expectedVersion?: number,
): Promise<TaggedPerson> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.person.updateMany({
      where: { ...ownedPerson(ownerId, personId), version: expectedVersion },
      data: {
        version: { increment: 1 },
        avatar: fields.avatar,
        firstName: fields.firstName,
        lastName: fields.lastName,
        bio: sanitizeRichText(fields.bio),
        traits: fields.traits,
        aspirations: fields.aspirations,
        lifeStates: fields.lifeStates,
        custom: asJson(fields.custom),
        gameId: fields.gameId,
      },
    });
    if (count === 0) return refuseUnwrittenPerson(tx, ownerId, personId);
    await claimUploads(tx, ownerId, [fields.avatar]);
    const row = await tx.person.findUniqueOrThrow({
      where: { id: personId },
      select: personSelect,
    });
    return taggedPerson(row);
  });
}
