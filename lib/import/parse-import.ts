// One entry point for every importer: the file's bytes in, an ImportedTree out.
import { detectFormat, type ImportFormat } from "./detect";
import { parseHeirloomZip } from "./heirloom";
import { parsePlumTreeZip } from "./plumtree";
import { parsePruneTreeZip } from "./prunetree";
import type { ImportedTree } from "./types";
import { bytesOf, type ZipInput, type ZipLimits } from "./zip";

/** Parses a file as `format`, or as whatever detectFormat finds when no format is given. */
export async function parseImportFile(
  bytes: ZipInput,
  format?: ImportFormat,
  limits?: ZipLimits,
  options: { fileName?: string; household?: string; households?: string[] } = {},
): Promise<ImportedTree> {
  switch (format ?? detectFormat(bytes, limits)) {
    case "plumtree":
      return parsePlumTreeZip(bytes, limits);
    case "prunetree":
      return parsePruneTreeZip(bytes, limits);
    case "heirloom":
      return parseHeirloomZip(bytes, limits);
    case "gedcom": {
      // Loaded on demand: GEDCOM is the other importer's module and most imports are ZIPs.
      const { parseGedcom } = await import("@/lib/gedcom/import");
      return parseGedcom(bytesOf(bytes), { fileName: options.fileName });
    }
    case "sims4": {
      const { parseSims4 } = await import("@/lib/sims4");
      return parseSims4(bytesOf(bytes), {
        household: options.household,
        households: options.households,
      });
    }
  }
}
