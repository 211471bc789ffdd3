import "server-only";
import type { Prisma } from "@/lib/generated/prisma/client";
import { ApiError, notFound } from "@/lib/server/http/errors";
import { PERSON_CONFLICT, PERSON_NOT_FOUND, ownedPerson, personEtag } from "./serialize";

/**
 * After a write conditioned on the person's version matched no row: 409 with the current ETag
 * when the person is there (its version moved on), else 404. The condition sits in the write's
 * own WHERE, so two writers with the same If-Match cannot both win.
 */
export async function refuseUnwrittenPerson(
  client: Prisma.TransactionClient,
  ownerId: string,
  personId: string,
): Promise<never> {
  const current = await client.person.findFirst({
    where: ownedPerson(ownerId, personId),
    select: { version: true },
  });
  if (!current) throw notFound(PERSON_NOT_FOUND);
  throw new ApiError(409, PERSON_CONFLICT, { ETag: personEtag(current.version) });
}
