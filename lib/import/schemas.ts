import { z } from "zod";
import { TITLE_MAX } from "@/lib/schemas/tree";
import { IMPORT_FORMATS } from "./detect";

const householdId = z
  .string()
  .regex(/^\d{1,20}$/, "household must be a household id: a decimal number");

/** Households one import may merge (a save holds at most SIMS4_LIMITS.maxHouseholds). */
export const MAX_HOUSEHOLDS_PER_IMPORT = 1_000;

/** POST /api/trees/import?format=&title= */
export const importQuery = z.object({
  format: z
    .enum(IMPORT_FORMATS, { error: `format must be one of ${IMPORT_FORMATS.join(", ")}` })
    .optional(),
  title: z
    .string()
    .trim()
    .max(TITLE_MAX, `A title can be at most ${TITLE_MAX} characters`)
    .optional(),
  /** The name of the file the player chose: a GEDCOM file without a title of its own is named after it. */
  fileName: z.string().max(1_000, "fileName can be at most 1000 characters").optional(),
  /** The Sims 4 household to import from a save (a decimal id); without it, the active one. */
  household: householdId.optional(),
  /**
   * Several households into one tree: the route reads every `household` parameter of the query
   * (`?household=A&household=B`) into this list (issue 34).
   */
  households: z
    .array(householdId)
    .max(MAX_HOUSEHOLDS_PER_IMPORT, `An import can take at most ${MAX_HOUSEHOLDS_PER_IMPORT} households`)
    .optional(),
});
export type ImportQuery = z.infer<typeof importQuery>;

export const EXPORT_FORMATS = ["zip", "gedcom"] as const;

/** GET /api/trees/{treeId}/export?format= */
export const exportQuery = z.object({
  format: z
    .enum(EXPORT_FORMATS, { error: `format must be one of ${EXPORT_FORMATS.join(", ")}` })
    .default("zip"),
});

/** What POST /api/trees/import answers besides the tree. */
export interface ImportSummary {
  people: number;
  images: number;
  skippedImages: { image: string; reason: string }[];
  droppedLinks: number;
  notes: string[];
  /** Unconnected families: the first is the tree's root, the others sit beside it (hidden nodes). */
  families: number;
}
