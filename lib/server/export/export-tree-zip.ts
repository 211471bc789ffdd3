import "server-only";
import { loadTreeForExport } from "./load-export";
import { exportFileName } from "@/lib/export/filename";
import { imageName } from "@/lib/schemas/common";
import { logger } from "@/lib/server/logger";
import { readOriginalInOwnFormat } from "@/lib/server/uploads/stored-original";
import { runInWorker } from "@/lib/server/workers/pool";
import { transferables } from "@/lib/server/workers/transfer";

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
 * data, its people, the cover and avatar images, and an offline tree.html, written in a worker
 * thread. 404 when the tree is not the owner's.
 */
export async function exportTreeZip(
  ownerId: string,
  treeId: string,
  now: Date = new Date(),
): Promise<ExportedFile> {
  const source = await loadTreeForExport(ownerId, treeId);
  const images = await readImages(
    source.images.filter((name) => imageName.safeParse(name).success),
  );
  const bytes = await runInWorker(
    "exportZip",
    {
      tree: source.tree,
      people: source.people,
      images,
      exportedAt: now.toISOString(),
    },
    transferables({ images }),
  );
  return { filename: exportFileName(source.title, "zip"), contentType: "application/zip", bytes };
}
