import { z } from "zod";
import { imageName, objectId } from "./common";

export const PERSON_LIMITS = {
  name: 100,
  bio: 100_000,
  listItems: 200,
  listItem: 100,
  customRows: 100,
  customTitle: 200,
  customValue: 5_000,
  links: 50,
  linkTitle: 200,
} as const;

const name = z
  .string()
  .trim()
  .max(PERSON_LIMITS.name, `Names can be at most ${PERSON_LIMITS.name} characters`);
const textList = (label: string) =>
  z
    .array(
      z
        .string()
        .trim()
        .min(1)
        .max(
          PERSON_LIMITS.listItem,
          `${label} can be at most ${PERSON_LIMITS.listItem} characters each`,
        ),
    )
    .max(PERSON_LIMITS.listItems, `At most ${PERSON_LIMITS.listItems} ${label.toLowerCase()}`)
    .transform((values) => [...new Set(values)]);

export const customRow = z.object({
  title: z.string().max(PERSON_LIMITS.customTitle, "A custom title is too long").default(""),
  value: z.string().max(PERSON_LIMITS.customValue, "A custom value is too long").default(""),
});

export const personLink = z.object({
  title: z.string().trim().max(PERSON_LIMITS.linkTitle, "A link title is too long").default(""),
  treeId: objectId,
  personId: objectId,
});
export type PersonLink = z.infer<typeof personLink>;

/** A Sims 4 Sim id: a decimal string, as the ids pass 2^53. */
export const gameId = z
  .string({ error: "gameId must be a decimal string" })
  .regex(/^\d{1,20}$/, "gameId must be a Sims 4 Sim id: a decimal number of at most 20 digits");

const personFields = {
  avatar: imageName.nullable().default(null),
  firstName: name.default(""),
  lastName: name.default(""),
  bio: z.string().max(PERSON_LIMITS.bio, "The bio is too long").default(""),
  traits: textList("Traits").default([]),
  aspirations: textList("Aspirations").default([]),
  lifeStates: textList("Life States").default([]),
  custom: z.array(customRow).max(PERSON_LIMITS.customRows, "Too many custom rows").default([]),
  /** The Sim's id in The Sims 4; a body without it leaves the stored one as it is. */
  gameId: gameId.nullable().optional(),
};

export const createPersonBody = z.object({ tree: objectId, ...personFields });

/** The full edit body; `tree` may be sent but a person never moves between trees. */
export const updatePersonFieldsBody = z.object({ tree: objectId.optional(), ...personFields });

export const updatePersonLinksBody = z
  .object({
    links: z.array(personLink).max(PERSON_LIMITS.links, `At most ${PERSON_LIMITS.links} links`),
  })
  .strict();

// PUT takes either the full body or `{links}` alone; lib/server/people/parse-person-update.ts
// picks the branch by the keys sent, so a links-only update never erases the other fields.

/** `fields=canvas`: only what the editor's canvas draws (ADR 032); absent: whole persons. */
export const PEOPLE_FIELDS = ["canvas"] as const;
export const peopleQuery = z.object({
  tree: objectId,
  fields: z.enum(PEOPLE_FIELDS, { error: "fields must be canvas" }).optional(),
});

export interface Person {
  _id: string;
  tree: string;
  avatar: string | null;
  firstName: string;
  lastName: string;
  bio: string;
  traits: string[];
  aspirations: string[];
  lifeStates: string[];
  custom: { title: string; value: string }[];
  links: PersonLink[];
  /** The Sim's id in The Sims 4 (decimal), or null; always sent by the API. */
  gameId?: string | null;
}

export type CreatePersonBody = z.infer<typeof createPersonBody>;
