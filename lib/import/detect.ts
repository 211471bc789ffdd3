// Which importer a file needs, from its bytes alone (the browser's file name and type are hints
// at best). ZIPs are told apart by the entries they list; GEDCOM by its first line.
import { MANIFEST_FILE } from "./heirloom";
import { TREE_FILE } from "./plumtree";
import { BUNDLE_FILE } from "./prunetree";
import { looksLikeSims4 } from "@/lib/sims4/sniff";
import { ImportError } from "./types";
import { looksLikeZip, openZip, type ZipInput, type ZipLimits } from "./zip";

export const IMPORT_FORMATS = ["plumtree", "prunetree", "heirloom", "gedcom", "sims4"] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export const UNKNOWN_FORMAT =
  "This file is not a backup we can read. Choose a Plum Tree, PruneTree or Heirloom backup ZIP, a GEDCOM (.ged) file, or a Sims 4 save (.save) or tray item (.trayitem).";

const UTF8_BOM = [0xef, 0xbb, 0xbf];

/**
 * The encoding of text that starts with "0 HEAD": UTF-16 by its byte-order mark or, without
 * one, by the zero byte beside each ASCII character; otherwise one byte per character (UTF-8,
 * with or without a byte-order mark, ANSEL, Windows-1252...).
 */
function headText(bytes: Uint8Array): string {
  const [b0, b1] = bytes;
  let encoding = "latin1";
  let start = 0;
  if (UTF8_BOM.every((b, i) => bytes[i] === b)) start = 3;
  else if (b0 === 0xff && b1 === 0xfe) [encoding, start] = ["utf-16le", 2];
  else if (b0 === 0xfe && b1 === 0xff) [encoding, start] = ["utf-16be", 2];
  else if (b0 !== 0 && b1 === 0) encoding = "utf-16le";
  else if (b0 === 0 && b1 !== 0) encoding = "utf-16be";
  const width = encoding === "latin1" ? 1 : 2;
  return new TextDecoder(encoding).decode(bytes.subarray(start, start + 16 * width));
}

/** True when the bytes are GEDCOM text: "0 HEAD" first, in UTF-8, UTF-16 or an 8-bit set. */
export function looksLikeGedcom(bytes: Uint8Array): boolean {
  return /^\s*0 HEAD\b/.test(headText(bytes));
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
  if (bytes instanceof Uint8Array && looksLikeSims4(bytes)) return "sims4";
  throw new ImportError(UNKNOWN_FORMAT);
}
