// Uploads of Sims 4 saves: the households list, a household's import and the sync of a tree,
// all through the one file upload of lib/client/api.ts (progress, 403, the server's detail).
import { importTree, uploadFile, type TreeImportResult } from "@/lib/client/api";

export interface HouseholdChoice {
  id: string;
  name: string;
  members: number;
  family: number;
  preview: string[];
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

export function importHousehold(
  file: Blob,
  household: string,
  options: { title?: string; onProgress?: (f: number) => void } = {},
): Promise<TreeImportResult> {
  return importTree(file, { ...options, household, format: "sims4" });
}

/** Updates a tree from a newer save of its household (POST /api/trees/{id}/import). */
export function syncTree(
  treeId: string,
  file: Blob,
  options: { onProgress?: (f: number) => void } = {},
): Promise<{ changes: SyncChanges }> {
  return uploadFile(`/api/trees/${encodeURIComponent(treeId)}/import`, file, options);
}
