// The legacy's settings (issue 33): the founder counted as Generation 1 and the succession laws
// the owner picked. Stored beside the tree's structure (Tree.legacy), never inside it, so the
// original Plum Tree client neither sees nor drops them; read and written by
// GET/PUT /api/trees/{id}/legacy.
import { z } from "zod";
import { BLOODLINE_LAWS, GENDER_LAWS, HEIR_LAWS, type SuccessionLaws } from "./succession";

/** Bounds of what the owner types: a trait's or a species' name. */
export const LEGACY_LIMITS = { name: 60 } as const;

const name = (what: string) =>
  z
    .string({ error: `${what} must be text` })
    .trim()
    .min(1, `${what} must not be empty`)
    .max(LEGACY_LIMITS.name, `${what} can be at most ${LEGACY_LIMITS.name} characters`);

export const successionLaws = z
  .object({
    gender: z.enum(GENDER_LAWS, { error: `gender must be one of ${GENDER_LAWS.join(", ")}` }),
    bloodline: z.enum(BLOODLINE_LAWS, {
      error: `bloodline must be one of ${BLOODLINE_LAWS.join(", ")}`,
    }),
    heir: z.enum(HEIR_LAWS, { error: `heir must be one of ${HEIR_LAWS.join(", ")}` }),
    exemplarTrait: name("The Exemplar trait").optional(),
    species: z
      .object({
        mode: z.enum(["prefer", "require", "exclude"], {
          error: "species.mode must be prefer, require or exclude",
        }),
        species: name("The species"),
      })
      .strict()
      .nullable()
      .optional(),
  })
  .strict();

/** PUT /api/trees/{id}/legacy: what is sent replaces what is stored; what is left out stays. */
export const updateLegacyBody = z
  .object({
    /** The founder's person id; null for the tree's root Sim. */
    founder: z
      .string({ error: "founder must be a Sim's id" })
      .regex(/^[A-Za-z0-9_-]{1,64}$/, "founder must be a Sim's id")
      .nullable()
      .optional(),
    /** The laws; null for none chosen. */
    laws: successionLaws.nullable().optional(),
  })
  .strict();
export type UpdateLegacyBody = z.infer<typeof updateLegacyBody>;

export interface LegacySettings {
  /** The Sim counted as Generation 1; null for the tree's root Sim. */
  founder: string | null;
  laws: SuccessionLaws | null;
}

export const NO_LEGACY: LegacySettings = { founder: null, laws: null };

/** The settings as stored (anything unreadable reads as none: the root founds, no laws). */
export function legacyOf(value: unknown): LegacySettings {
  const parsed = updateLegacyBody.safeParse(value);
  if (!parsed.success) return NO_LEGACY;
  return { founder: parsed.data.founder ?? null, laws: parsed.data.laws ?? null };
}
