// The Sims 4 reader's entry points: pure `(bytes, options) => result` functions, with no database
// and no I/O, so that they run unchanged in an import worker.
import type { ImportedTree } from "@/lib/import/types";
import { ImportError } from "@/lib/import/types";
import { buildHouseholdTree, type Sims4ImportOptions } from "./build";
import { summarizeHouseholds, type HouseholdSummary } from "./family";
import type { Sims4Save } from "./model";
import { readSaveFile } from "./save";
import { looksLikeDbpf, looksLikeSims4, looksLikeTrayItem } from "./sniff";
import { readTrayItem } from "./tray";

export type { HouseholdSummary } from "./family";
export type { Sims4ImportOptions } from "./build";

export { looksLikeSims4 };

/** Reads a .save or a .trayitem. */
export function readSims4(bytes: Uint8Array): Sims4Save {
  if (looksLikeDbpf(bytes)) return readSaveFile(bytes);
  if (looksLikeTrayItem(bytes)) return readTrayItem(bytes);
  throw new ImportError("This file is not a Sims 4 save or tray item.");
}

/** The households of a save (a tray item has one), the active one first. */
export function listSims4Households(bytes: Uint8Array): HouseholdSummary[] {
  return summarizeHouseholds(readSims4(bytes));
}

/** A household's family as a new tree (default: the save's active household). */
export function parseSims4(bytes: Uint8Array, options: Sims4ImportOptions = {}): ImportedTree {
  return buildHouseholdTree(readSims4(bytes), options);
}
