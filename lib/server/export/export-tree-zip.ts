import "server-only";
import { loadTreeForExport } from "./load-export";
import { exportFileName } from "@/lib/export/filename";
import { writeHeirloomZip } from "@/lib/export/heirloom-zip";
import { getTreeHeirs } from "@/lib/server/trees/set-tree-heirs";
import { imageName } from "@/lib/schemas/common";
import { logger } from "@/lib/server/logger";
import { readOriginalInOwnFormat } from "@/lib/server/uploads/stored-original";

export interface ExportedFile {
  filename: string;
  contentType: string;
  bytes: Uint8Array;
}

/** Stored images read at once while the backup is built. */
const CONCURRENCY = 8;

async function readImages(names: string[]): Promise<Map<string, Uint8Array>> {
  const images = new Map<string, Uint8Array>();
  const queue = [...names];
  const work = async () => {
    for (let name = queue.shift(); name; name = queue.shift()) {
      // In the name's own format (ADR 015 stores a WebP); a reference whose file is gone stays in
      // the data, and importing it notes the missing image.
      const stored = await readOriginalInOwnFormat(name);
      if (stored) images.set(name, stored);
      else logger.warn({ image: name }, "export: image missing from storage");
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, work));
  return new Map(names.filter((n) => images.has(n)).map((n) => [n, images.get(n)!]));
}

/**
 * The owner's tree as an Heirloom backup ZIP (lib/import/heirloom.ts describes the layout): its
 * data, its people, the cover and avatar images, and an offline tree.html. 404 when the tree is
 * not the owner's.
 */
export async function exportTreeZip(
  ownerId: string,
  treeId: string,
  now: Date = new Date(),
): Promise<ExportedFile> {
  const { tree, people } = await loadTreeForExport(ownerId, treeId);
  const names = [
    ...new Set(
      [tree.cover, ...people.map((p) => p.avatar)].filter(
        (name): name is string => name !== null && imageName.safeParse(name).success,
      ),
    ),
  ];
  const { heirs } = await getTreeHeirs(ownerId, treeId);
  const bytes = writeHeirloomZip({
    tree: { ...tree, heirs },
    people,
    images: await readImages(names),
    exportedAt: now,
  });
  return { filename: exportFileName(tree.title, "zip"), contentType: "application/zip", bytes };
}
