import "server-only";
import { ImportError } from "@/lib/import/types";
import type { HouseholdSummary } from "@/lib/sims4";
import { ApiError } from "@/lib/server/http/errors";
import type { RateLimitRule } from "@/lib/server/rate-limit";
import { runInWorker } from "@/lib/server/workers/pool";
import { EMPTY_FILE } from "./import-file";
import type { ImportSource } from "./prepare-import";

export { NOT_A_SAVE } from "@/lib/sims4/sniff";

/** Household lists per player: each reads a whole save, as an import does. */
export const HOUSEHOLDS_PER_USER: RateLimitRule = {
  name: "import-households:user",
  limit: 60,
  windowSeconds: 60 * 60,
  message: "Too many saves read.",
};

/**
 * The households of an uploaded save (a tray item has one), the active one first, read in a worker
 * thread (an ImportError there, such as a file that is not a save, becomes 400 with its sentence).
 */
export async function listHouseholds(
  source: ImportSource,
): Promise<{ households: HouseholdSummary[] }> {
  if ("bytes" in source && source.bytes.length === 0) throw new ApiError(400, EMPTY_FILE);
  try {
    return { households: await runInWorker("sims4Households", { source }) };
  } catch (error) {
    if (error instanceof ImportError) throw new ApiError(400, error.message);
    throw error;
  }
}
