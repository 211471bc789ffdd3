import "server-only";
import { ImportError } from "@/lib/import/types";
import type { ZipInput } from "@/lib/import/zip";
import { listSims4Households, type HouseholdSummary } from "@/lib/sims4";
import { looksLikeSims4 } from "@/lib/sims4/sniff";
import { ApiError } from "@/lib/server/http/errors";
import type { RateLimitRule } from "@/lib/server/rate-limit";
import { EMPTY_FILE } from "./import-file";

/** Household lists per player: each reads a whole save, as an import does. */
export const HOUSEHOLDS_PER_USER: RateLimitRule = {
  name: "import-households:user",
  limit: 60,
  windowSeconds: 60 * 60,
  message: "Too many saves read.",
};

export const NOT_A_SAVE =
  "This file is not a Sims 4 save or tray item. Choose a Slot_0000000N.save file from the game's saves folder, or a .trayitem from its Tray folder.";

/** The households of an uploaded save (a tray item has one), the active one first. */
export function listHouseholds(input: ZipInput): { households: HouseholdSummary[] } {
  if (input.length === 0) throw new ApiError(400, EMPTY_FILE);
  if (!(input instanceof Uint8Array) || !looksLikeSims4(input)) throw new ApiError(400, NOT_A_SAVE);
  try {
    return { households: listSims4Households(input) };
  } catch (error) {
    if (error instanceof ImportError) throw new ApiError(400, error.message);
    throw error;
  }
}
