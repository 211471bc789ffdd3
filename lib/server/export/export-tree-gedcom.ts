import "server-only";
import { exportFileName } from "@/lib/export/filename";
import type { ExportedFile } from "./export-tree-zip";
import { getTreeHeirs } from "@/lib/server/trees/set-tree-heirs";
import { loadTreeForExport } from "./load-export";

export const GEDCOM_CONTENT_TYPE = "text/vnd.familysearch.gedcom; charset=utf-8";

/** The owner's tree as GEDCOM 7 (lib/gedcom/export.ts); 404 when the tree is not the owner's. */
export async function exportTreeGedcom(ownerId: string, treeId: string): Promise<ExportedFile> {
  const { tree, people } = await loadTreeForExport(ownerId, treeId);
  // Loaded on demand, like the GEDCOM importer: most exports are ZIPs.
  const { writeGedcom } = await import("@/lib/gedcom/export");
  return {
    filename: exportFileName(tree.title, "ged"),
    contentType: GEDCOM_CONTENT_TYPE,
    bytes: new TextEncoder().encode(
      writeGedcom({ tree: { ...tree, ...(await getTreeHeirs(ownerId, treeId)) }, people }),
    ),
  };
}
