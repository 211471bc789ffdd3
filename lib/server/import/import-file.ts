import "server-only";
import { parseImportFile } from "@/lib/import/parse-import";
import type { ImportQuery } from "@/lib/import/schemas";
import { ImportError } from "@/lib/import/types";
import type { ZipInput, ZipLimits } from "@/lib/import/zip";
import { ApiError } from "@/lib/server/http/errors";
import type { RateLimitRule } from "@/lib/server/rate-limit";
import { importTree, type ImportResult } from "./import-tree";

/** Imports per player: each one unpacks, checks and re-encodes up to 200 MB. */
export const IMPORT_PER_USER: RateLimitRule = {
  name: "import:user",
  limit: 30,
  windowSeconds: 60 * 60,
  message: "Too many imports.",
};

export const EMPTY_FILE = "The file is empty. Choose a backup ZIP or a GEDCOM file.";

/**
 * Parses an uploaded file (as `query.format`, or as detected) and imports it as a new tree of
 * `ownerId`. A file that cannot be read is a 400 whose detail says why; nothing is created then.
 */
export async function importFile(
  ownerId: string,
  bytes: ZipInput,
  query: ImportQuery,
  limits?: ZipLimits,
): Promise<ImportResult> {
  if (bytes.length === 0) throw new ApiError(400, EMPTY_FILE);
  let file;
  try {
    file = await parseImportFile(bytes, query.format, limits, {
      fileName: query.fileName,
      household: query.household,
    });
  } catch (error) {
    if (error instanceof ImportError) throw new ApiError(400, error.message);
    throw error;
  }
  return importTree(ownerId, file, { title: query.title || undefined });
}
