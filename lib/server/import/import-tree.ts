import "server-only";
import type { ImportSummary } from "@/lib/import/schemas";
import type { Tree } from "@/lib/schemas/tree";
import { db } from "@/lib/server/db";
import type { PreparedImport } from "./prepare-import";
import { insertPeople } from "./insert-people";
import { resolveLinks } from "./resolve-links";
import { storeImportedImages } from "./store-images";

/** A 10,000-Sim import writes megabytes in one transaction; Prisma's 5 s default is too short. */
const IMPORT_TX_OPTIONS = { maxWait: 10_000, timeout: 120_000 } as const;

/** The new tree (its structure as JSON text, `dataJson`) and what the import did. */
export interface ImportResult {
  tree: Omit<Tree, "data">;
  /** The tree's `data`, as the JSON the worker wrote: never parsed on the request thread. */
  dataJson: string;
  imported: ImportSummary;
}

/** The answer of POST /api/trees/import, `{tree, imported}`, written around `dataJson`. */
export function importResultJson(result: ImportResult): string {
  const { _id, title, description, cover, version } = result.tree;
  const head = JSON.stringify({ _id, title, description, cover });
  const heirs = JSON.stringify(result.tree.heirs ?? []);
  return `{"tree":${head.slice(0, -1)},"data":${result.dataJson},"version":${version},"heirs":${heirs}},"imported":${JSON.stringify(result.imported)}}`;
}

/**
 * Writes a prepared import (prepare-import.ts, built in a worker thread) as a new tree of
 * `ownerId`, all or nothing:
 * - images checked and re-encoded like uploads and stored as USED uploads of the owner; an image
 *   that fails the checks is skipped (listed in `skippedImages`) and its Sim has no avatar;
 * - links to other trees kept only when that tree's public copy has the person (resolveLinks);
 * - one transaction writes the tree, the uploads and the people (in bulk, see insertPeople);
 *   if anything fails, the files already stored are deleted and nothing is left behind.
 */
export async function importPrepared(
  ownerId: string,
  prepared: PreparedImport,
): Promise<ImportResult> {
  const { treeId, title, description } = prepared;
  // sharp decodes on libuv's threads while the links are checked.
  const storing = storeImportedImages(prepared.images, new Map(prepared.usage));
  let resolved;
  try {
    resolved = await resolveLinks(prepared.links);
  } catch (error) {
    await (await storing.catch(() => null))?.discard();
    throw error;
  }
  const stored = await storing;
  const imageName = (key: string | null) => (key ? (stored.byKey.get(key)?.name ?? null) : null);
  const avatars = new Map<string, string>();
  for (const [key, image] of stored.byKey) avatars.set(key, image.name);

  const now = Date.now();
  try {
    await db.$transaction(async (tx) => {
      await tx.$executeRaw`
        INSERT INTO "Tree" ("id", "ownerId", "title", "description", "cover", "data", "heirs", "createdAt", "updatedAt")
        VALUES (${treeId}, ${ownerId}, ${title}, ${description}, ${imageName(prepared.cover)},
          ${prepared.dataJson}::jsonb, ${JSON.stringify(prepared.heirs)}::jsonb,
          CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)`;
      const uploads = [...new Map([...stored.byKey.values()].map((i) => [i.name, i])).values()];
      if (uploads.length > 0) {
        await tx.upload.createMany({
          data: uploads.map((image) => ({
            id: image.name,
            ownerId,
            dir: image.dir,
            contentType: image.contentType,
            status: "USED" as const,
            size: image.size,
            width: image.width,
            height: image.height,
            urlExpiresAt: new Date(now),
          })),
        });
      }
      await insertPeople(tx, prepared.peopleBatches, avatars, resolved.links);
    }, IMPORT_TX_OPTIONS);
  } catch (error) {
    await stored.discard();
    throw error;
  }

  const skippedImages = [...stored.skipped].sort((a, b) => a.image.localeCompare(b.image));
  return {
    tree: {
      _id: treeId,
      title,
      description,
      cover: imageName(prepared.cover),
      version: 1,
      heirs: prepared.heirs,
    },
    dataJson: prepared.dataJson,
    imported: {
      people: prepared.people,
      images: new Set([...stored.byKey.values()].map((i) => i.name)).size,
      skippedImages,
      droppedLinks: resolved.dropped,
      notes: prepared.notes,
      families: prepared.families,
    },
  };
}
