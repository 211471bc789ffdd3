// Writes Heirloom's backup ZIP (layout in lib/import/heirloom.ts): Plum Tree's data/tree.js and
// data/people.js, the images under images/<name>, heirloom.json and the offline tree.html.
import { zipSync, type Zippable } from "fflate";
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  MANIFEST_FILE,
  type HeirloomManifest,
} from "@/lib/import/heirloom";
import { PEOPLE_FILE, TREE_FILE } from "@/lib/import/plumtree";
import type { Person } from "@/lib/schemas/person";
import type { Tree } from "@/lib/schemas/tree";
import { viewerHtml } from "./viewer-html";

export interface HeirloomBackup {
  tree: Pick<Tree, "_id" | "title" | "description" | "cover" | "data" | "heirs">;
  people: Person[];
  /** Image bytes by Heirloom name ("avatar/<uuid>.png"); stored as images/<name>. */
  images: ReadonlyMap<string, Uint8Array>;
  exportedAt: Date;
}

/**
 * JSON that is also safe JavaScript to load with <script src>: "<", ">" and "&" are escaped so the
 * text can never close a script element if someone inlines it, and U+2028/U+2029 for old parsers.
 */
export function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

const encoder = new TextEncoder();

/** The backup as ZIP bytes. Images are stored as they are (already compressed); text is deflated. */
export function writeHeirloomZip(backup: HeirloomBackup): Uint8Array {
  const { tree, people, images, exportedAt } = backup;
  const manifest: HeirloomManifest = {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    exportedAt: exportedAt.toISOString(),
    counts: { people: people.length, images: images.size },
    // kept apart from the structure, as on the server (issue 26); Plum Tree's files stay as they are
    ...(tree.heirs && tree.heirs.length > 0 ? { heirs: tree.heirs } : {}),
  };
  const treeJs = `var tree=${scriptSafeJson({
    _id: tree._id,
    title: tree.title,
    description: tree.description,
    cover: tree.cover,
    data: tree.data,
  })};\n`;
  const peopleJs = `var people=${scriptSafeJson(people)};\n`;
  const mtime = exportedAt;
  const files: Zippable = {
    [MANIFEST_FILE]: [encoder.encode(`${JSON.stringify(manifest, null, 2)}\n`), { mtime }],
    "tree.html": [encoder.encode(viewerHtml()), { mtime }],
    [TREE_FILE]: [encoder.encode(treeJs), { mtime }],
    [PEOPLE_FILE]: [encoder.encode(peopleJs), { mtime }],
  };
  for (const [name, bytes] of images) files[`images/${name}`] = [bytes, { level: 0, mtime }];
  return zipSync(files, { level: 6, mtime });
}
