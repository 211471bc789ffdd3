// Which importer a file needs, from its bytes alone (the browser's file name and type are hints
// at best). ZIPs are told apart by the entries they list; GEDCOM by its first line.
import { MANIFEST_FILE } from "./heirloom";
import { TREE_FILE } from "./plumtree";
import { BUNDLE_FILE } from "./prunetree";
import { ImportError } from "./types";
import { looksLikeZip, openZip, type ZipInput, type ZipLimits } from "./zip";

export const IMPORT_FORMATS = ["plumtree", "prunetree", "heirloom", "gedcom"] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export const UNKNOWN_FORMAT =
  "This file is not a backup we can read. Choose a Plum Tree, PruneTree or Heirloom backup ZIP, or a GEDCOM (.ged) file.";

const UTF8_BOM = [0xef, 0xbb, 0xbf];

/** True when the bytes are GEDCOM text: "0 HEAD" first, after an optional byte-order mark. */
export function looksLikeGedcom(bytes: Uint8Array): boolean {
  let start = 0;
  if (UTF8_BOM.every((b, i) => bytes[i] === b)) start = 3;
  const utf16 =
    (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
  if (utf16) {
    const littleEndian = bytes[0] === 0xff;
    const head = new TextDecoder(littleEndian ? "utf-16le" : "utf-16be").decode(
      bytes.subarray(2, 2 + 2 * 16),
    );
    return /^\s*0 HEAD\b/.test(head);
  }
  const head = new TextDecoder("latin1").decode(bytes.subarray(start, start + 16));
  return /^\s*0 HEAD\b/.test(head);
}

/** The format of an uploaded file; ImportError when it is none of ours. */
export function detectFormat(bytes: ZipInput, limits?: ZipLimits): ImportFormat {
  if (looksLikeZip(bytes)) {
    const zip = openZip(bytes, limits);
    if (zip.has(TREE_FILE)) return zip.has(MANIFEST_FILE) ? "heirloom" : "plumtree";
    if (zip.has(BUNDLE_FILE)) return "prunetree";
    throw new ImportError(
      `This ZIP archive is not a Plum Tree, PruneTree or Heirloom backup (it has no ${TREE_FILE} or ${BUNDLE_FILE})`,
    );
  }
  // A file that is not a ZIP reaches here in memory (read-import-body.ts).
  if (bytes instanceof Uint8Array && looksLikeGedcom(bytes)) return "gedcom";
  throw new ImportError(UNKNOWN_FORMAT);
}
