import "server-only";
import { exportFileName } from "@/lib/export/filename";
import { runInWorker } from "@/lib/server/workers/pool";
import type { ExportedFile } from "./export-tree-zip";
import { loadTreeForExport } from "./load-export";

export const GEDCOM_CONTENT_TYPE = "text/vnd.familysearch.gedcom; charset=utf-8";

/**
 * The owner's tree as GEDCOM 7 (lib/gedcom/export.ts), written in a worker thread; 404 when the
 * tree is not the owner's.
 */
export async function exportTreeGedcom(ownerId: string, treeId: string): Promise<ExportedFile> {
  const source = await loadTreeForExport(ownerId, treeId);
  const bytes = await runInWorker("exportGedcom", {
    tree: source.tree,
    people: source.people,
  });
  return {
    filename: exportFileName(source.title, "ged"),
    contentType: GEDCOM_CONTENT_TYPE,
    bytes,
  };
}
