// The Plum Tree backup ZIP (and Heirloom's own backup, which keeps the same layout):
//   data/tree.js    var tree={_id, title, description, cover, data}
//   data/people.js  var people=[{_id, tree, avatar, firstName, lastName, bio, traits,
//                               aspirations, lifeStates, custom, links}, …]
//   images/<id>     the images the cover and avatars name
//   tree.html       the offline viewer (ignored on import)
import {
  baseName,
  filePeople,
  fileTree,
  normalizeTreeData,
  parsePeople,
  parseVarFile,
  parseWith,
  toImportedPerson,
} from "./normalize";
import type { ImportedImages, ImportedTree } from "./types";
import { ImportError } from "./types";
import { openZip, type ZipArchive, type ZipInput, type ZipLimits } from "./zip";

export const TREE_FILE = "data/tree.js";
export const PEOPLE_FILE = "data/people.js";

/**
 * Finds the archive entry for an image reference: `images/<value>`, else
 * `images/<basename of value>` (Plum Tree names were "avatar/<id>.jpg" or bare ids).
 */
function findImage(zip: ZipArchive, value: string | number | null | undefined): string | null {
  if (value === null || value === undefined || value === "") return null;
  const reference = String(value);
  for (const name of [`images/${reference}`, `images/${baseName(reference)}`]) {
    if (zip.has(name)) return name;
  }
  return null;
}

/** Reads a Plum-Tree-layout archive; `source` says which tool wrote it. */
export function readPlumLayout(zip: ZipArchive, source: "plumtree" | "heirloom"): ImportedTree {
  for (const file of [TREE_FILE, PEOPLE_FILE]) {
    if (!zip.has(file)) throw new ImportError(`The backup has no ${file}`);
  }
  const tree = parseWith(
    fileTree,
    parseVarFile(zip.readText(TREE_FILE), "tree", TREE_FILE),
    TREE_FILE,
  );
  const rawPeople = parseWith(
    filePeople,
    parseVarFile(zip.readText(PEOPLE_FILE), "people", PEOPLE_FILE),
    PEOPLE_FILE,
  );
  const people = parsePeople(rawPeople, PEOPLE_FILE);
  const data = normalizeTreeData(tree.data, new Set(people.map((p) => p._id)));

  const images: ImportedImages = new Map();
  const notes: string[] = [];
  const take = (value: string | number | null | undefined, owner: string): string | null => {
    const name = findImage(zip, value);
    if (name === null) {
      if (value !== null && value !== undefined && value !== "") {
        notes.push(`The image ${String(value)} (${owner}) is not in the archive and was left out`);
      }
      return null;
    }
    if (!images.has(name)) images.set(name, zip.read(name));
    return name;
  };

  const cover = take(tree.cover, "the cover");
  const imported = people.map((person) =>
    toImportedPerson(
      person,
      take(person.avatar, `avatar of ${person.firstName} ${person.lastName}`.trim()),
    ),
  );
  return {
    source,
    title: tree.title,
    description: tree.description,
    cover,
    data,
    people: imported,
    images,
    sourceTreeId: tree._id ?? null,
    notes,
  };
}

/** Parses a Plum Tree backup ZIP. */
export function parsePlumTreeZip(bytes: ZipInput, limits?: ZipLimits): ImportedTree {
  return readPlumLayout(openZip(bytes, limits), "plumtree");
}
