// Uploads of Sims 4 saves: the households list, a household's import and the sync of a tree,
// all through the one file upload of lib/client/api.ts (progress, 403, the server's detail).
import { uploadFile, type TreeImportResult } from "@/lib/client/api";

export interface HouseholdChoice {
  id: string;
  name: string;
  members: number;
  family: number;
  preview: string[];
  /** The names of the Sims who live there (the households route, issue 34). */
  memberNames: string[];
}

export interface SyncChanges {
  added: { _id: string; gameId: string; firstName: string; lastName: string }[];
  updated: { _id: string; gameId: string; firstName: string; lastName: string; fields: string[] }[];
  unchanged: number;
  notes: string[];
}

/** True when a file's name says it is a Sims 4 save or tray item. */
export const isSims4File = (name: string) => /\.(save|trayitem)$/i.test(name);

export async function listHouseholds(file: Blob, onProgress?: (f: number) => void): Promise<HouseholdChoice[]> {
  const body = await uploadFile<{ households: HouseholdChoice[] }>("/api/trees/import/households", file, {
    onProgress,
  });
  return body.households;
}

/**
 * Imports one or more households of a save into one tree
 * (`POST /api/trees/import?household=A&household=B`): their families are merged by game id.
 */
export function importHouseholds(
  file: Blob,
  households: readonly string[],
  options: { title?: string; onProgress?: (f: number) => void } = {},
): Promise<TreeImportResult> {
  const query = new URLSearchParams({ format: "sims4" });
  if (options.title) query.set("title", options.title);
  for (const id of households) query.append("household", id);
  return uploadFile<TreeImportResult>(`/api/trees/import?${query.toString()}`, file, {
    onProgress: options.onProgress,
  });
}

/** A name as a search compares it: accents and case ignored ("Cléo" and "cleo", "Ёжик" and "ежик"). */
export function foldForSearch(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLocaleLowerCase();
}

/** The households whose name or one of whose members' names holds the search, in list order. */
export function filterHouseholds(
  households: readonly HouseholdChoice[],
  search: string,
): HouseholdChoice[] {
  const wanted = foldForSearch(search.trim());
  if (wanted === "") return [...households];
  return households.filter(
    (h) =>
      foldForSearch(h.name).includes(wanted) ||
      h.memberNames.some((name) => foldForSearch(name).includes(wanted)),
  );
}

/** Updates a tree from a newer save of its household (POST /api/trees/{id}/import). */
export function syncTree(
  treeId: string,
  file: Blob,
  options: { onProgress?: (f: number) => void } = {},
): Promise<{ changes: SyncChanges }> {
  return uploadFile(`/api/trees/${encodeURIComponent(treeId)}/import`, file, options);
}
