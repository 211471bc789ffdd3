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
  gameId: true,
  version: true,
} as const satisfies Prisma.PersonSelect;

type PersonRow = Prisma.PersonGetPayload<{ select: typeof personSelect }>;

export const PERSON_NOT_FOUND = "Person not found";

export const PERSON_CONFLICT =
  "This Sim was changed somewhere else (another tab or device) since you opened it. Reload to see those changes, or save over them.";

/** The `ETag` of a person: its version, bumped by every edit. `If-Match` sends it back. */
export const personEtag = (version: number) => `"${version}"`;

/** A person in the API's shape and its ETag (the version stays out of the body). */
export interface TaggedPerson {
  person: Person;
  etag: string;
}

/** serializePerson with the row's ETag. */
export const taggedPerson = (row: PersonRow): TaggedPerson => ({
  person: serializePerson(row),
  etag: personEtag(row.version),
});

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
    // only on Sims that came from the game: the original client's people keep their keys
    ...(row.gameId === null ? {} : { gameId: row.gameId }),
  };
}

/** Where a person of `ownerId`'s live (not deleted) trees is found. */
export const ownedPerson = (ownerId: string, personId: string) =>
  ({
    id: personId,
    tree: { ownerId, deletedAt: null },
  }) satisfies Prisma.PersonWhereInput;
