import "server-only";
import type { PersonLink } from "@/lib/schemas/person";
import { db } from "@/lib/server/db";
import { ApiError, notFound } from "@/lib/server/http/errors";
import { asJson } from "@/lib/server/trees/serialize";
import { refuseUnwrittenPerson } from "./refuse-unwritten";
import {
  PERSON_NOT_FOUND,
  type TaggedPerson,
  ownedPerson,
  personSelect,
  taggedPerson,
} from "./serialize";

const linkKey = (link: Pick<PersonLink, "treeId" | "personId">) =>
  `${link.treeId}/${link.personId}`;

/** Refuses links whose target tree is not published, or whose person is not in its public copy. */
async function assertLinkTargetsPublished(links: PersonLink[]): Promise<void> {
  if (links.length === 0) return;
  const treeIds = [...new Set(links.map((l) => l.treeId))];
  const published = await db.publishedTree.findMany({
    where: { treeId: { in: treeIds } },
    select: { treeId: true },
  });
  const publishedIds = new Set(published.map((p) => p.treeId));
  for (const link of links) {
    if (!publishedIds.has(link.treeId)) {
      throw new ApiError(
        400,
        `Tree ${link.treeId} is not published. Links may only target public trees.`,
      );
    }
  }
  for (const link of links) {
    const inCopy = await db.publishedTree.count({
      where: { treeId: link.treeId, people: { array_contains: [{ _id: link.personId }] } },
    });
    if (inCopy === 0) {
      throw new ApiError(
        400,
        `Person ${link.personId} is not in the published copy of tree ${link.treeId}.`,
      );
    }
  }
}

/**
 * Replaces a person's links and nothing else. Links that the person already had are kept as they
 * are, even if their target has been unpublished since (so one can still edit the list); every
 * new link must target a published tree and a person in its published copy. `expectedVersion`
 * (from If-Match) refuses an edit of any other version with 409, as updatePerson does.
 */
export async function updatePersonLinks(
  ownerId: string,
  personId: string,
  links: PersonLink[],
  expectedVersion?: number,
): Promise<TaggedPerson> {
  const current = await db.person.findFirst({
    where: ownedPerson(ownerId, personId),
    select: { links: true },
  });
  if (!current) throw notFound(PERSON_NOT_FOUND);
  const existing = new Set((current.links as unknown as PersonLink[]).map(linkKey));
  await assertLinkTargetsPublished(links.filter((link) => !existing.has(linkKey(link))));
  const { count } = await db.person.updateMany({
    where: { ...ownedPerson(ownerId, personId), version: expectedVersion },
    data: { links: asJson(links), version: { increment: 1 } },
  });
  if (count === 0) return refuseUnwrittenPerson(db, ownerId, personId);
  const row = await db.person.findUniqueOrThrow({ where: { id: personId }, select: personSelect });
  return taggedPerson(row);
}
