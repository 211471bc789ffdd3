// The PruneTree backup ZIP (PruneTree is the browser-only fork of The Plum Tree,
// github.com/TrueKuehli/PruneTree, src/common/scripts/exchange.ts and types.ts):
//   bundle.json          {tree, people, images}
//     tree               {_id, title, description, cover: <image id>|null, data}
//     people[]           {_id, treeId, firstName, lastName, avatar: <image id>|null, bio,
//                          traits, aspirations, lifeStates, custom, links}
//     images[]           {_id, cropData}; the blobs themselves are the files below
//   cropped/<id>.<ext>   the image as shown (used here)
//   original/<id>.<ext>  the image before cropping (used when the cropped one is missing)
// Ids are IndexedDB numbers. Enums are words: partner types Partner, Ex-Partner, Married,
// Abduction; conception types WooHoo (NONE), Alien Abduction (ABDUCTION), Cloning (CLONE).
import { z } from "zod";
import {
  fileId,
  filePeople,
  fileTree,
  normalizeTreeData,
  parseJsonFile,
  parsePeople,
  parseWith,
  toImportedPerson,
} from "./normalize";
import type { ImportedImages, ImportedTree } from "./types";
import { ImportError } from "./types";
import { openZip, type ZipArchive, type ZipInput, type ZipLimits } from "./zip";

export const BUNDLE_FILE = "bundle.json";

const bundle = z.object({
  tree: fileTree,
  people: filePeople.nullish().transform((v) => v ?? []),
  images: z
    .array(z.object({ _id: fileId }).loose())
    .nullish()
    .transform((v) => v ?? []),
});

const EXTENSIONS = ["", ".png", ".jpg", ".jpeg"];

function findImage(zip: ZipArchive, id: string): string | null {
  for (const folder of ["cropped", "original"]) {
    for (const extension of EXTENSIONS) {
      const name = `${folder}/${id}${extension}`;
      if (zip.has(name)) return name;
    }
  }
  return null;
}

/** Parses a PruneTree backup ZIP. */
export function parsePruneTreeZip(bytes: ZipInput, limits?: ZipLimits): ImportedTree {
  const zip = openZip(bytes, limits);
  if (!zip.has(BUNDLE_FILE)) throw new ImportError(`The backup has no ${BUNDLE_FILE}`);
  const parsed = parseWith(
    bundle,
    parseJsonFile(zip.readText(BUNDLE_FILE), BUNDLE_FILE),
    BUNDLE_FILE,
  );
  const people = parsePeople(parsed.people, BUNDLE_FILE);
  const data = normalizeTreeData(parsed.tree.data, new Set(people.map((p) => p._id)));

  const listed = new Set(parsed.images.map((image) => image._id));
  const images: ImportedImages = new Map();
  const notes: string[] = [];
  const take = (value: string | number | null | undefined, owner: string): string | null => {
    if (value === null || value === undefined || value === "") return null;
    const id = String(value);
    const name = listed.has(id) ? findImage(zip, id) : null;
    if (name === null) {
      notes.push(`The image ${id} (${owner}) is not in the archive and was left out`);
      return null;
    }
    if (!images.has(name)) images.set(name, zip.read(name));
    return name;
  };

  const cover = take(parsed.tree.cover, "the cover");
  const imported = people.map((person) =>
    toImportedPerson(
      person,
      take(person.avatar, `avatar of ${person.firstName} ${person.lastName}`.trim()),
    ),
  );
  return {
    source: "prunetree",
    title: parsed.tree.title,
    description: parsed.tree.description,
    cover,
    data,
    people: imported,
    images,
    sourceTreeId: parsed.tree._id ?? null,
    notes,
  };
}
