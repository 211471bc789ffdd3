// Heirloom's own backup ZIP: Plum Tree's layout (so PruneTree and Plum Tree tools can read it)
// plus heirloom.json, a manifest that says what wrote it:
//   heirloom.json   {format: "heirloom-backup", version: 1, exportedAt, counts: {people, images},
//                    heirs?: [person _id, …] (one per generation, issue 26)}
//   data/tree.js    var tree={_id, title, description, cover, data}
//   data/people.js  var people=[Person, …] (the API's Person shape)
//   images/<name>   each image under its Heirloom name, e.g. images/avatar/<uuid>.png
//   tree.html       a self-contained viewer that works offline from file://
import { z } from "zod";
import { TREE_LIMITS } from "@/lib/schemas/tree";
import { parseJsonFile, parseWith } from "./normalize";
import { readPlumLayout } from "./plumtree";
import type { ImportedTree } from "./types";
import { ImportError } from "./types";
import { openZip, type ZipInput, type ZipLimits } from "./zip";

export const MANIFEST_FILE = "heirloom.json";
export const BACKUP_FORMAT = "heirloom-backup";
export const BACKUP_VERSION = 1;

export const heirloomManifest = z.object({
  format: z.literal(BACKUP_FORMAT, { error: `heirloom.json must say format "${BACKUP_FORMAT}"` }),
  version: z.number().int().min(1),
  exportedAt: z.string(),
  counts: z.object({ people: z.number().int().min(0), images: z.number().int().min(0) }),
  heirs: z
    .array(z.string().max(64))
    .max(TREE_LIMITS.maxDepth, `heirloom.json names more than ${TREE_LIMITS.maxDepth} heirs`)
    .optional(),
});
export type HeirloomManifest = z.infer<typeof heirloomManifest>;

/** Parses an Heirloom backup ZIP. */
export function parseHeirloomZip(bytes: ZipInput, limits?: ZipLimits): ImportedTree {
  const zip = openZip(bytes, limits);
  if (!zip.has(MANIFEST_FILE)) throw new ImportError(`The backup has no ${MANIFEST_FILE}`);
  const manifest = parseWith(
    heirloomManifest,
    parseJsonFile(zip.readText(MANIFEST_FILE), MANIFEST_FILE),
    MANIFEST_FILE,
  );
  if (manifest.version > BACKUP_VERSION) {
    throw new ImportError(
      `This backup was made by a newer Heirloom (format version ${manifest.version}); this one reads version ${BACKUP_VERSION}`,
    );
  }
  const tree = readPlumLayout(zip, "heirloom");
  return manifest.heirs ? { ...tree, heirs: manifest.heirs } : tree;
}
