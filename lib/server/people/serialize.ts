import "server-only";
import type { Prisma } from "@/lib/generated/prisma/client";
import type { Person, PersonLink } from "@/lib/schemas/person";

export const personSelect = {
  id: true,
  treeId: true,
  avatar: true,
  firstName: true,
  lastName: true,
  bio: true,
  traits: true,
  aspirations: true,
  lifeStates: true,
  custom: true,
  links: true,
} as const satisfies Prisma.PersonSelect;

type PersonRow = Prisma.PersonGetPayload<{ select: typeof personSelect }>;

export const PERSON_NOT_FOUND = "Person not found";

/** A person row in the API's shape (`id` becomes `_id`, `treeId` becomes `tree`). */
export function serializePerson(row: PersonRow): Person {
  return {
    _id: row.id,
    tree: row.treeId,
    avatar: row.avatar,
    firstName: row.firstName,
    lastName: row.lastName,
    bio: row.bio,
    traits: row.traits,
    aspirations: row.aspirations,
    lifeStates: row.lifeStates,
    // validated by the person schemas before they were stored
    custom: row.custom as Person["custom"],
    links: row.links as unknown as PersonLink[],
  };
}

/** Where a person of `ownerId`'s live (not deleted) trees is found. */
export const ownedPerson = (ownerId: string, personId: string) =>
  ({
    id: personId,
    tree: { ownerId, deletedAt: null },
  }) satisfies Prisma.PersonWhereInput;
